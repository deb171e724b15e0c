import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHostileIdp, type HostileIdp, type Signing } from "../../test/hostile-idp.ts";
import { verifyIdToken } from "./sign-in.ts";

// Kule's own check of the ID token (the one next-auth leaves out: its signature), before any role is mapped from it.
let idp: HostileIdp;
beforeAll(async () => void (idp = await startHostileIdp()));
afterAll(() => idp?.close());

const verify = async (over: Record<string, unknown>, how?: Signing) => verifyIdToken(idp.config, await idp.sign(idp.claims(null, over), how));
const hourAgo = () => Math.floor(Date.now() / 1000) - 3600;

describe("the ID token Kule maps roles from", () => {
  it("is taken when the provider signed it, for Kule, in the pinned algorithm", async () => {
    expect(await verify({})).toMatchObject({ ok: true, claims: { sub: "oliver", groups: ["kule-operators"] } });
  });

  it.each<[string, Record<string, unknown>, Signing | undefined, RegExp]>([
    ["signed by a key that is not the provider's", {}, { alg: "RS256", by: "stranger" }, /signature verification failed/],
    ["unsigned (alg none)", {}, { alg: "none" }, /Unsupported "alg"|not allowed/],
    ["an HMAC keyed with the client secret", {}, { alg: "HS256", secret: "client secret" }, /not allowed|Unsupported "alg"/],
    ["an HMAC keyed with the provider's public key (key confusion)", {}, { alg: "HS256", secret: "public key" }, /not allowed|Unsupported "alg"/],
    ["signed by the provider's key in another algorithm than the pinned one", {}, { alg: "PS256" }, /"alg" \(Algorithm\) Header Parameter value not allowed/],
    ["from another issuer", { iss: "https://other-idp.example" }, undefined, /unexpected "iss" claim value/],
    ["for another client", { aud: "someone-else" }, undefined, /unexpected "aud" claim value/],
    ["expired an hour ago", { iat: hourAgo() - 60, exp: hourAgo() }, undefined, /"exp" claim timestamp check failed/],
  ])("is refused when %s", async (_, over, how, reason) => {
    const r = await verify(over, how);
    expect(r.ok).toBe(false);
    expect((r as { reason: string }).reason).toMatch(reason);
  });
});
