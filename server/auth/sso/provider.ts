import { customFetch } from "next-auth";
import type { OIDCConfig } from "next-auth/providers";
import { outboundFetch } from "../../http/outbound.ts";
import { SSO_PROVIDER_ID, type SsoConfig } from "./config.ts";

interface OidcProfile {
  sub?: unknown;
  email?: unknown;
  name?: unknown;
}

/**
 * Kule's OpenID Connect provider for next-auth, found through the issuer's discovery document.
 * next-auth (oauth4webapi) checks the ID token's issuer, audience, expiry and nonce on the way back;
 * its algorithm is pinned here because, left unset, oauth4webapi takes whatever the discovery
 * document lists, and providers list HS256 beside RS256 (Keycloak does).
 */
export function oidcProvider(sso: SsoConfig): OIDCConfig<OidcProfile> {
  return {
    id: SSO_PROVIDER_ID,
    name: sso.name,
    type: "oidc",
    issuer: sso.issuer,
    clientId: sso.clientId,
    clientSecret: sso.clientSecret,
    checks: ["pkce", "state", "nonce"],
    client: { id_token_signed_response_alg: sso.idTokenAlg },
    authorization: { params: { scope: sso.scopes } },
    // Discovery names the token, key-set and userinfo URLs: each passes Kule's outbound check (KULE_OUTBOUND_ALLOW for an in-house provider).
    [customFetch]: outboundFetch("KULE_OIDC_ISSUER"),
    profile: (p) => ({ id: String(p.sub), email: typeof p.email === "string" ? p.email : null, name: typeof p.name === "string" ? p.name : null }),
  };
}
