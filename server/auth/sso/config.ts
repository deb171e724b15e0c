import { env } from "../../env.ts";

export interface SsoConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
  scopes: string;
  /** The only algorithm an ID token may be signed with (KULE_OIDC_ID_TOKEN_ALG). */
  idTokenAlg: string;
}

/** The OpenID Connect provider Kule signs people in with, when the configuration names one (all three of issuer, client id and secret). */
export function ssoConfig(): SsoConfig | null {
  const { KULE_OIDC_ISSUER: issuer, KULE_OIDC_CLIENT_ID: clientId, KULE_OIDC_CLIENT_SECRET: clientSecret } = env;
  if (!issuer || !clientId || !clientSecret) return null;
  return { issuer, clientId, clientSecret, name: env.KULE_OIDC_NAME, scopes: env.KULE_OIDC_SCOPES, idTokenAlg: env.KULE_OIDC_ID_TOKEN_ALG };
}

/** The provider id next-auth knows it by (its callback is /api/auth/callback/oidc). */
export const SSO_PROVIDER_ID = "oidc";
