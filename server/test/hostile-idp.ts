import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, exportSPKI, generateKeyPair, importJWK, SignJWT, type JWTPayload } from "jose";
import type { SsoConfig } from "../auth/sso/config.ts";

/** How a forged ID token is signed: the provider's own key (in RS256 or another algorithm), a stranger's key, an HMAC, or not at all. */
export type Signing = { alg: "RS256" | "PS256"; by?: "provider" | "stranger" } | { alg: "HS256"; secret: "client secret" | "public key" } | { alg: "none" };

/**
 * An OpenID provider whose token endpoint answers with whatever ID token the test set: the tokens a
 * man in the middle, a hostile or misconfigured provider, or a replay would present. Its discovery
 * document lists HS256 and `none` beside RS256, as real providers' lists do (Keycloak lists HS256).
 * The code exchange is refused unless the PKCE verifier matches the challenge of the sign-in.
 */
export async function startHostileIdp() {
  const own = await generateKeyPair("RS256", { extractable: true });
  // The same RSA key for RSA-PSS: WebCrypto binds a key to one algorithm.
  const ownPss = await importJWK(await exportJWK(own.privateKey), "PS256");
  const stranger = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(own.publicKey)), kid: "k1", use: "sig" };
  const publicPem = await exportSPKI(own.publicKey);
  const clientId = "kule-test";
  const clientSecret = "kule-test-client-secret-0123456789";
  const tokenRequests: URLSearchParams[] = [];
  let nextIdToken = "";
  let challenge = "";

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (url.pathname === "/.well-known/openid-configuration") {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        id_token_signing_alg_values_supported: ["RS256", "PS256", "HS256", "none"],
        code_challenge_methods_supported: ["S256"],
      });
    }
    if (url.pathname === "/jwks") return json(200, { keys: [jwk] });
    if (url.pathname === "/userinfo") return json(200, {});
    if (url.pathname === "/token") {
      let body = "";
      for await (const chunk of req) body += chunk;
      const form = new URLSearchParams(body);
      tokenRequests.push(form);
      const verifier = form.get("code_verifier") ?? "";
      const digest = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))).toString("base64url");
      if (digest !== challenge) return json(400, { error: "invalid_grant", error_description: "PKCE verification failed" });
      return json(200, { access_token: "at", token_type: "bearer", expires_in: 300, id_token: nextIdToken });
    }
    json(404, {});
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    config: { issuer, clientId, clientSecret, name: "Hostile IdP", scopes: "openid email profile groups", idTokenAlg: "RS256" } satisfies SsoConfig,
    tokenRequests,
    /** An honest identity's claims, as this provider would issue them for the sign-in with this nonce. */
    claims: (nonce: string | null, over: JWTPayload = {}): JWTPayload => {
      const now = Math.floor(Date.now() / 1000);
      return { iss: issuer, aud: clientId, sub: "oliver", email: "oliver@idp.example", email_verified: true, name: "Oliver", groups: ["kule-operators"], iat: now, exp: now + 300, ...(nonce ? { nonce } : {}), ...over };
    },
    async sign(claims: JWTPayload, how: Signing = { alg: "RS256" }): Promise<string> {
      if (how.alg === "none") {
        const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
        return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.`;
      }
      const key = how.alg === "HS256" ? new TextEncoder().encode(how.secret === "client secret" ? clientSecret : publicPem) : how.by === "stranger" ? stranger.privateKey : how.alg === "PS256" ? ownPss : own.privateKey;
      return new SignJWT(claims).setProtectedHeader({ alg: how.alg, kid: "k1", typ: "JWT" }).sign(key);
    },
    /** What the next code exchange answers, for the sign-in whose authorization request carried this PKCE challenge. */
    answerNext(idToken: string, codeChallenge: string) {
      nextIdToken = idToken;
      challenge = codeChallenge;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type HostileIdp = Awaited<ReturnType<typeof startHostileIdp>>;
