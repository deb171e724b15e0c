import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { NextRequest } from "next/server";
import { decode } from "next-auth/jwt";
import { ownDatabase } from "../../test/own-db.ts";
import { startHostileIdp, type HostileIdp, type Signing } from "../../test/hostile-idp.ts";
import { loadActor } from "../../trpc/context.ts";

/*
 * Single sign-on through Kule's own auth route (app/api/auth/[...nextauth]) and next-auth, against
 * a provider that answers the code exchange with whatever ID token a test forges. The route is
 * imported once the environment names that provider and this file's database.
 */
const KULE = "https://kule.example";
/** Back on the sign-in page with next-auth's refusal. */
const REFUSED = /^https:\/\/kule\.example\/login\?error=/;
let idp: HostileIdp;
let own: Awaited<ReturnType<typeof ownDatabase>>;
let route: { GET: (r: NextRequest) => Promise<Response>; POST: (r: NextRequest) => Promise<Response> };
let appDb: () => { $disconnect(): Promise<void> };
const AUTH_SECRET = "oidc-flow-test-secret-0123456789";
/** Why next-auth refused, as Kule's auth logger wrote it (server/auth/next-auth.ts). */
const logged: string[] = [];
type Logged = { message?: string; cause?: { message?: string; err?: Error } };

beforeAll(async () => {
  vi.spyOn(console, "error").mockImplementation((_, e: Logged) => void logged.push([e?.message, e?.cause?.message, e?.cause?.err?.message].join(" | ")));
  [idp, own] = await Promise.all([startHostileIdp(), ownDatabase("oidc")]);
  const env = { DATABASE_URL: own.url, AUTH_SECRET, KULE_OIDC_ISSUER: idp.issuer, KULE_OIDC_CLIENT_ID: idp.config.clientId, KULE_OIDC_CLIENT_SECRET: idp.config.clientSecret };
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  vi.resetModules();
  route = await import("@/app/api/auth/[...nextauth]/route");
  appDb = (await import("@/server/db/client")).db;
  await own.db.ssoRule.create({ data: { claim: "groups", value: "kule-operators", role: "operator", position: 1 } });
});
afterAll(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await appDb?.().$disconnect();
  await Promise.all([idp?.close(), own?.close()]);
});

/** A browser: the cookies Kule's auth routes set, sent back on every later request. */
function browser() {
  const jar = new Map<string, string>();
  async function go(path: string, form?: Record<string, string>): Promise<Response> {
    const headers = new Headers({ host: "kule.example", "x-forwarded-proto": "https", cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") });
    if (form) headers.set("content-type", "application/x-www-form-urlencoded");
    const req = new Request(`http://localhost:3000${path}`, { method: form ? "POST" : "GET", headers, body: form ? new URLSearchParams(form).toString() : undefined });
    const res = await (form ? route.POST : route.GET)(req as NextRequest);
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(";")[0]!;
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
      if (!value || /max-age=0(;|$)/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }
  const sessionCookie = () => [...jar].find(([k]) => k.endsWith("authjs.session-token"));
  return { go, sessionCookie };
}
type Browser = ReturnType<typeof browser>;

/** "Continue with …": the authorization request the browser is sent to the provider with. */
async function startSignIn(b: Browser, callbackUrl = "/"): Promise<URLSearchParams> {
  const { csrfToken } = (await (await b.go("/api/auth/csrf")).json()) as { csrfToken: string };
  const res = await b.go("/api/auth/signin/oidc", { csrfToken, callbackUrl });
  const authorize = new URL(res.headers.get("location") ?? "");
  expect(`${authorize.origin}${authorize.pathname}`).toBe(`${idp.issuer}/authorize`);
  return authorize.searchParams;
}

/** The provider sends the browser back with a code (for the sign-in `request` was), and answers its exchange with `idToken`. */
async function comeBack(b: Browser, request: URLSearchParams, idToken: string, state = request.get("state") ?? ""): Promise<string> {
  idp.answerNext(idToken, request.get("code_challenge") ?? "");
  const res = await b.go(`/api/auth/callback/oidc?${new URLSearchParams({ code: "the-code", state })}`);
  return res.headers.get("location") ?? "";
}

async function signIn(claims: (nonce: string) => Record<string, unknown>, how?: Signing, callbackUrl?: string) {
  const b = browser();
  const request = await startSignIn(b, callbackUrl);
  const location = await comeBack(b, request, await idp.sign(claims(request.get("nonce") ?? ""), how));
  return { location, signedIn: b.sessionCookie() !== undefined, b };
}

describe("single sign-on, as an attacker tries it", () => {
  it("lets in an honest identity, having sent a state, a nonce and an S256 PKCE challenge, and the verifier to the provider", async () => {
    const request = await startSignIn(browser());
    expect({ method: request.get("code_challenge_method"), state: !!request.get("state"), nonce: !!request.get("nonce") }).toEqual({ method: "S256", state: true, nonce: true });
    // The provider refuses the code exchange unless the verifier matches the challenge (server/test/hostile-idp.ts).
    const r = await signIn((nonce) => idp.claims(nonce));
    expect(r).toMatchObject({ location: `${KULE}/`, signedIn: true });
    expect(idp.tokenRequests.at(-1)?.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
    const user = await own.db.user.findUniqueOrThrow({ where: { email: "oliver@idp.example" }, include: { membership: true } });
    expect(user.membership?.role).toBe("operator");
  });

  // next-auth (oauth4webapi) refuses these before Kule sees them (the sign-in page gets "?error=",
  // the log says why); a token only a signature check catches is Kule's refusal ("?code=invalid_token").
  it.each<[string, (nonce: string) => Record<string, unknown>, Signing | undefined, RegExp]>([
    ["carries the nonce of another sign-in (a replayed token)", () => idp.claims("a-nonce-from-another-sign-in"), undefined, /unexpected ID Token "nonce" claim value/],
    ["carries no nonce", () => idp.claims(null), undefined, /"nonce" \(nonce\) claim missing/],
    ["was issued for another client", (n) => idp.claims(n, { aud: "another-client" }), undefined, /unexpected JWT "aud"/],
    ["was issued by another issuer", (n) => idp.claims(n, { iss: "https://other-idp.example" }), undefined, /unexpected JWT "iss"/],
    ["has expired", (n) => idp.claims(n, { iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }), undefined, /unexpected JWT "exp"/],
    ["is unsigned (alg none)", (n) => idp.claims(n), { alg: "none" }, /unexpected JWT "alg" header parameter/],
    ["is an HMAC keyed with the client secret", (n) => idp.claims(n), { alg: "HS256", secret: "client secret" }, /unexpected JWT "alg" header parameter/],
    ["is an HMAC keyed with the provider's public key", (n) => idp.claims(n), { alg: "HS256", secret: "public key" }, /unexpected JWT "alg" header parameter/],
    ["is in an algorithm other than the pinned one", (n) => idp.claims(n), { alg: "PS256" }, /unexpected JWT "alg" header parameter/],
  ])("refuses an ID token that %s", async (_, claims, how, why) => {
    const r = await signIn(claims, how);
    expect(r).toMatchObject({ signedIn: false, location: expect.stringMatching(REFUSED) });
    expect(logged.at(-1)).toMatch(why);
  });

  it("refuses an ID token signed by a key not the provider's (groups raised to admin on the way)", async () => {
    const r = await signIn((n) => idp.claims(n, { sub: "eve", email: "eve@idp.example", groups: ["kule-admins"] }), { alg: "RS256", by: "stranger" });
    expect(r).toEqual({ location: `${KULE}/login?code=invalid_token`, signedIn: false, b: r.b });
    const refusal = await own.db.auditEvent.findFirstOrThrow({ where: { action: "auth.sign_in.refused" }, orderBy: { id: "desc" } });
    expect(refusal.after).toMatchObject({ method: "sso", code: "invalid_token", reason: expect.stringMatching(/signature verification failed/) });
    expect(await own.db.user.count({ where: { email: "eve@idp.example" } })).toBe(0);
  });

  it("refuses a callback whose state is not this browser's (an attacker's code planted in a victim's browser)", async () => {
    const attacker = browser();
    const attackers = await startSignIn(attacker);
    const token = await idp.sign(idp.claims(attackers.get("nonce")));
    // A victim who never started a sign-in, and one in the middle of their own.
    const fresh = browser();
    expect(await comeBack(fresh, attackers, token)).toMatch(REFUSED);
    const busy = browser();
    await startSignIn(busy);
    expect(await comeBack(busy, attackers, token)).toMatch(REFUSED);
    expect([fresh.sessionCookie(), busy.sessionCookie()]).toEqual([undefined, undefined]);
    expect(logged.slice(-2)).toEqual([expect.stringMatching(/state cookie was missing/), expect.stringMatching(/unexpected "state" response parameter value/)]);
  });

  it.each(["https://evil.example", "//evil.example", "/\\evil.example", "https://kule.example@evil.example/"])("lands on Kule's home, not elsewhere, after a sign-in with callbackUrl=%s", async (callbackUrl) => {
    const r = await signIn((nonce) => idp.claims(nonce), undefined, callbackUrl);
    expect(r.signedIn).toBe(true);
    expect(new URL(r.location).href).toBe(`${KULE}/`);
  });

  it("does not let an identity whose e-mail the provider does not vouch for take over the Kule account with that e-mail", async () => {
    const admin = await own.db.user.create({ data: { email: "root@idp.example", name: "Root", passwordHash: "x", membership: { create: { role: "admin" } } } });
    for (const email_verified of [false, undefined, "true"]) {
      const r = await signIn((nonce) => idp.claims(nonce, { sub: "mallory", email: "ROOT@idp.example ", email_verified }));
      expect(r).toMatchObject({ location: `${KULE}/login?code=email_taken`, signedIn: false });
    }
    expect(await own.db.user.findUniqueOrThrow({ where: { id: admin.id } })).toMatchObject({ ssoSubject: null });
    expect(await own.db.user.count({ where: { ssoSubject: `${idp.issuer}|mallory` } })).toBe(0);
  });

  it("refuses a signed-in person's session on the next request once their membership is removed", async () => {
    const r = await signIn((nonce) => idp.claims(nonce, { sub: "ayse", email: "ayse@idp.example" }));
    const [name, token] = r.b.sessionCookie()!;
    const session = await decode({ token, secret: AUTH_SECRET, salt: name });
    expect(await loadActor(own.db, session?.sub)).toMatchObject({ email: "ayse@idp.example", role: "operator" });
    await own.db.membership.delete({ where: { userId: session!.sub! } });
    expect(await loadActor(own.db, session?.sub)).toBeNull();
  });
});
