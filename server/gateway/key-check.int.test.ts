import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { testDb } from "../test/harness.ts";
import { startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { ownDatabase } from "../test/own-db.ts";
import { keyVersion } from "../call-log/keys/keyring.ts";
import { processRings, type Rings } from "../call-log/keys/rings.ts";
import { registerRings } from "../call-log/keys/registry.ts";
import { revealIp } from "../call-log/keys/reveal.ts";
import { hashSubject } from "../call-log/subject-hash.ts";

const secret = () => randomBytes(32).toString("base64");
const chat = (base: string, key: string, body: object = {}) =>
  fetch(`${base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ model: "no-such-model", messages: [{ role: "user", content: "hi" }], ...body }) });

let pool: pg.Pool;
beforeAll(async () => {
  pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
  // The run's real keys are recorded before any gateway below offers another.
  await registerRings(pool, processRings());
});
afterAll(() => pool.end());

describe("a gateway proves it holds the current key before it logs", () => {
  it("refuses every call with 503 and logs nothing when its key's fingerprint is not the recorded one", async () => {
    const real = processRings();
    const forged: Rings = { standard: { ring: "standard", versions: [keyVersion("standard", real.standard.versions[0]!.version, secret())] }, special: real.special };
    const gw = await startTestGateway({ rings: forged });
    try {
      const t = await tenantWithKey();
      await gw.gateway.config.reload();
      const res = await chat(gw.base, t.secret, { user: "ayse@example.com.tr" });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/cannot log calls.*fingerprint differs/);
      await gw.gateway.callLog.flush();
      expect(await testDb().callLog.count({ where: { tenantId: t.tenant.id } })).toBe(0);
      // The KVKK page sees this gateway refusing.
      const reports = await testDb().gatewayKeyReport.findMany({ where: { refusing: { contains: "fingerprint" } } });
      expect(reports.length).toBeGreaterThan(0);
    } finally {
      await gw.close();
    }
  });

  it("with the recorded key, stores the IP encrypted and the subject hashed under that version, never in clear", async () => {
    const gw = await startTestGateway();
    try {
      const t = await tenantWithKey();
      await gw.gateway.config.reload();
      expect((await chat(gw.base, t.secret, { user: "ayse@example.com.tr" })).status).toBe(404);
      await gw.gateway.callLog.flush();
      const [row] = await testDb().callLog.findMany({ where: { tenantId: t.tenant.id } });
      const v = processRings().standard.versions[0]!.version;
      expect(row).toMatchObject({ clientIp: null, ipKeyVersion: v, userHashKeyVersion: v, userHash: hashSubject("ayse@example.com.tr") });
      expect(JSON.stringify(row)).not.toContain("127.0.0.1");
      expect(revealIp(row!).clientIp).toBe("127.0.0.1");
    } finally {
      await gw.close();
    }
  });
});

describe("rotation across gateways", () => {
  let own: Awaited<ReturnType<typeof ownDatabase>>;
  beforeAll(async () => (own = await ownDatabase("kule_keys_gw")), 120_000);
  const [a, b, s] = [secret(), secret(), secret()];
  const special = { ring: "special" as const, versions: [keyVersion("special", "s1", s)] };
  const old: Rings = { standard: { ring: "standard", versions: [keyVersion("standard", "v1", a)] }, special };
  const both: Rings = { standard: { ring: "standard", versions: [keyVersion("standard", "v2", b), keyVersion("standard", "v1", a)] }, special };
  afterAll(() => own.close());

  it("a gateway without the newly current key refuses; one holding it switches at the reload the change notifies", async () => {
    const tenant = await own.db.tenant.create({ data: { name: "Rot", slug: "rot" } });
    const key = `kule_test_rot${"x".repeat(30)}`;
    const { apiKeyRecord } = await import("../auth/api-key-secret.ts");
    await own.db.apiKey.create({ data: { tenantId: tenant.id, name: "k", prefix: apiKeyRecord(key).prefix, secretHash: apiKeyRecord(key).hash } });
    await registerRings(own.pool, old);
    const gwOld = await startTestGateway({ rings: old, databaseUrl: own.url });
    const gwNew = await startTestGateway({ rings: both, databaseUrl: own.url });
    try {
      // v2 is held but not current yet: both log under v1, so a rolling restart stops nothing.
      expect((await chat(gwNew.base, key)).status).toBe(404);
      expect((await chat(gwOld.base, key)).status).toBe(404);
      await own.pool.query(`UPDATE "SubjectKeyVersion" SET "currentSince" = now() WHERE version = 'v2'`);
      await Promise.all([gwOld.gateway.config.reload(), gwNew.gateway.config.reload()]);
      expect((await chat(gwNew.base, key)).status).toBe(404);
      const refused = await chat(gwOld.base, key);
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/does not hold v2/);
      await Promise.all([gwOld.gateway.callLog.flush(), gwNew.gateway.callLog.flush()]);
      const rows = await own.db.callLog.findMany({ where: { tenantId: tenant.id }, orderBy: { startedAt: "asc" } });
      expect(rows.map((r) => r.ipKeyVersion)).toEqual(["v1", "v1", "v2"]);
    } finally {
      await gwOld.close();
      await gwNew.close();
    }
  });

  it("a special-category tenant's rows go under the special ring's key", async () => {
    const tenant = await own.db.tenant.create({ data: { name: "Ege", slug: "ege", specialCategory: "health" } });
    const key = `kule_test_ege${"x".repeat(30)}`;
    const { apiKeyRecord } = await import("../auth/api-key-secret.ts");
    await own.db.apiKey.create({ data: { tenantId: tenant.id, name: "k", prefix: apiKeyRecord(key).prefix, secretHash: apiKeyRecord(key).hash } });
    const gw = await startTestGateway({ rings: both, databaseUrl: own.url });
    try {
      expect((await chat(gw.base, key, { user: "hasta-1" })).status).toBe(404);
      await gw.gateway.callLog.flush();
      expect(await own.db.callLog.findFirst({ where: { tenantId: tenant.id } })).toMatchObject({ ipKeyVersion: "s1", userHashKeyVersion: "s1" });
    } finally {
      await gw.close();
    }
  });
});
