/**
 * A real OpenID Connect provider for the end-to-end tests (`oidc-provider`, the certified Node.js
 * implementation), with its development login form (any login, any password) and three people:
 * oliver in kule-operators, ayse in anadolu-ai (a tenant's group), mallory in marketing (a group
 * no rule knows). GET /__tamper?on=1 makes it alter the ID tokens it issues (groups raised to
 * kule-admins, signature left as it was), as a man in the middle would; ?on=0 stops it.
 */
import http from "node:http";
import Provider from "oidc-provider";

const port = Number(process.env.KULE_E2E_OIDC_PORT ?? 3106);
const appUrl = process.env.KULE_APP_URL ?? "http://127.0.0.1:3100";
export const OIDC_CLIENT = { id: "kule-e2e", secret: "kule-e2e-oidc-client-secret" };

const PEOPLE: Record<string, { name: string; groups: string[] }> = {
  oliver: { name: "Oliver Operator", groups: ["staff", "kule-operators"] },
  ayse: { name: "Ayşe Yılmaz", groups: ["anadolu-ai"] },
  mallory: { name: "Mallory Marketing", groups: ["marketing"] },
};

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [{ client_id: OIDC_CLIENT.id, client_secret: OIDC_CLIENT.secret, redirect_uris: [`${appUrl}/api/auth/callback/oidc`], grant_types: ["authorization_code"], response_types: ["code"] }],
  async findAccount(_ctx, id) {
    const person = PEOPLE[id] ?? { name: id, groups: [] };
    return { accountId: id, claims: async () => ({ sub: id, email: `${id}@idp.example`, email_verified: true, name: person.name, groups: person.groups }) };
  },
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
  scopes: ["openid", "email", "profile", "groups"],
  // The groups go in the ID token itself, where Kule reads them.
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ["kule-e2e-oidc-cookie-key"] },
});
provider.on("server_error", (_ctx, err) => console.error("[oidc]", err));
provider.on("grant.error", (_ctx, err) => console.error("[oidc] token request refused:", (err as { error_detail?: string }).error_detail ?? err.message));

let tamper = false;

/** The token response with its ID token's payload rewritten and the original signature kept. */
function tampered(body: string): string {
  const json = JSON.parse(body) as { id_token?: string };
  if (!json.id_token) return body;
  const [head, payload, sig] = json.id_token.split(".");
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
  claims.groups = ["kule-admins"];
  json.id_token = [head, Buffer.from(JSON.stringify(claims)).toString("base64url"), sig].join(".");
  return JSON.stringify(json);
}

const handler = provider.callback();
http
  .createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
    if (url.pathname === "/__tamper") {
      tamper = url.searchParams.get("on") === "1";
      res.end(JSON.stringify({ tamper }));
      return;
    }
    if (tamper && url.pathname === "/token") {
      const end = res.end.bind(res) as (chunk?: unknown) => http.ServerResponse;
      res.end = ((chunk?: unknown) => {
        const body = tampered(Buffer.isBuffer(chunk) ? chunk.toString() : String(chunk ?? ""));
        if (!res.headersSent) res.setHeader("content-length", Buffer.byteLength(body));
        return end(body);
      }) as typeof res.end;
    }
    handler(req, res);
  })
  .listen(port, "127.0.0.1", () => console.log(`OpenID provider on http://127.0.0.1:${port}`));
