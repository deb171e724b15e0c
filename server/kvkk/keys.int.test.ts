import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { ownDatabase } from "../test/own-db.ts";
import { makeTenantIn } from "../audit/test/fixtures.ts";
import { env } from "../env.ts";
import { findVersion } from "../call-log/keys/keyring.ts";
import { processRings } from "../call-log/keys/rings.ts";
import { currentKeys, registerRings } from "../call-log/keys/registry.ts";
import { copyRows, type CallLogRow } from "../gateway/call-log.ts";
import { protectRow } from "../gateway/row-keys.ts";
import type { Actor } from "../auth/actor.ts";

const secret = () => randomBytes(32).toString("base64");
const [A, B, S] = [secret(), secret(), secret()];
const saved = { std: env.KULE_SUBJECT_HASH_KEYS, special: env.KULE_SPECIAL_SUBJECT_HASH_KEYS };
let own: Awaited<ReturnType<typeof ownDatabase>>;
let a: string, b: string, h: string;
let admin: Actor, auditor: Actor, tenantA: Actor, tenantB: Actor, tenantH: Actor;

async function actorIn(role: Actor["role"], tenantId: string | null = null): Promise<Actor> {
  const u = await own.db.user.create({ data: { email: `${role}-${randomUUID().slice(0, 8)}@t.local`, name: role, passwordHash: "x", membership: { create: { role, tenantId } } } });
  return { userId: u.id, email: u.email, name: u.name, role, tenantId };
}

/** Rows as a gateway writes them: protected under the versions PostgreSQL says are current. */
async function logCall(tenantId: string, ip: string, user: string | null, ring: "standard" | "special" = "standard") {
  const cur = await currentKeys(own.pool);
  const keys = { standard: findVersion(processRings().standard, cur.standard!.version)!, special: findVersion(processRings().special, cur.special!.version)! };
  const row: CallLogRow = { requestId: `r-${randomUUID()}`, tenantId, apiKeyId: "key-1", endpointId: null, endpointVersionId: null, replica: null, region: "tr-ist", clientIp: ip, startedAt: Date.now(), endedAt: Date.now(), ttftMs: null, status: 200, errorClass: null, promptTokens: 1, completionTokens: 1 };
  await copyRows(own.pool, [protectRow(row, user, keys, ring)]);
  return row.requestId;
}

const code = async (p: Promise<unknown>) => p.then(() => "OK", (e) => (e instanceof TRPCError ? e.code : String(e)));

beforeAll(async () => {
  own = await ownDatabase("kule_keys");
  env.KULE_SUBJECT_HASH_KEYS = `v1:${A}`;
  env.KULE_SPECIAL_SUBJECT_HASH_KEYS = `s1:${S}`;
  await registerRings(own.pool, processRings());
  await own.pool.query("SELECT kule_call_log_ensure_partitions(3)");
  [a, b, h] = [await makeTenantIn(own.pool), await makeTenantIn(own.pool), await makeTenantIn(own.pool)];
  [admin, auditor, tenantA, tenantB, tenantH] = [await actorIn("admin"), await actorIn("auditor"), await actorIn("tenant", a), await actorIn("tenant", b), await actorIn("tenant", h)];
}, 120_000);
afterAll(async () => {
  Object.assign(env, { KULE_SUBJECT_HASH_KEYS: saved.std, KULE_SPECIAL_SUBJECT_HASH_KEYS: saved.special });
  await own?.close();
});

describe("keys at rest, rotated", () => {
  let subjectRequest: string;

  it("finds a person and an IP under every key version, within one tenant only", async () => {
    const first = await logCall(a, "203.0.113.7", "ayse@example.com.tr");
    // The operator adds v2 to the ring and makes it current: new rows use it.
    env.KULE_SUBJECT_HASH_KEYS = `v2:${B},v1:${A}`;
    expect(await code(own.caller(auditor).kvkk.keys.activate({ version: "v2" }))).toBe("FORBIDDEN");
    await own.caller(admin).kvkk.keys.activate({ version: "v2" });
    expect((await own.db.auditEvent.findFirstOrThrow({ where: { action: "kvkk.key.activate" } })).after).toMatchObject({ current: "v2" });
    await logCall(a, "203.0.113.7", "ayse@example.com.tr");
    expect((await own.db.callLog.findMany({ where: { tenantId: a }, orderBy: { startedAt: "asc" } })).map((r) => r.ipKeyVersion)).toEqual(["v1", "v2"]);

    const found = await own.caller(tenantA).kvkk.subject.find({ user: "ayse@example.com.tr" });
    expect(found.rowsFound).toBe(2);
    subjectRequest = found.requestId;
    expect((await own.caller(tenantB).kvkk.subject.find({ user: "ayse@example.com.tr" })).rowsFound).toBe(0);
    const byIp = await own.caller(admin).callLog.list({ tenantId: a, clientIp: "203.0.113.7" });
    expect(byIp.items.map((r) => r.clientIp)).toEqual(["203.0.113.7", "203.0.113.7"]);
    expect(await code(own.caller(tenantB).callLog.get({ requestId: first }))).toBe("NOT_FOUND");
  });

  it("re-keys client IPs in an audited batch and retires a version only once no row uses it", async () => {
    await own.pool.query(`INSERT INTO "CallLog" ("requestId", "tenantId", "startedAt", "endedAt", status, "clientIp") VALUES ('legacy-1', $1, now(), now(), 200, '198.51.100.4')`, [a]);
    expect(await code(own.caller(auditor).kvkk.keys.rekey({ batch: 100 }))).toBe("FORBIDDEN");
    expect(await code(own.caller(admin).kvkk.keys.retire({ version: "v1" }))).toBe("CONFLICT");

    const done = await own.caller(admin).kvkk.keys.rekey({ batch: 100 });
    expect(done).toMatchObject({ rekeyed: 1, from: { v1: 1 }, encryptedClear: 1, remaining: 0 });
    expect(await own.db.callLog.count({ where: { ipKeyVersion: "v1" } })).toBe(0);
    expect(await own.db.callLog.findUniqueOrThrow({ where: { requestId_startedAt: { requestId: "legacy-1", startedAt: (await own.db.callLog.findFirstOrThrow({ where: { requestId: "legacy-1" } })).startedAt } } })).toMatchObject({ clientIp: null, ipKeyVersion: "v2" });
    expect((await own.db.auditEvent.findFirstOrThrow({ where: { action: "kvkk.key.rekey" } })).after).toMatchObject({ rekeyed: 1, encryptedClear: 1 });
    // Still read and searched as before.
    expect((await own.caller(admin).callLog.list({ tenantId: a, clientIp: "203.0.113.7" })).items.map((r) => r.clientIp)).toEqual(["203.0.113.7", "203.0.113.7"]);
    expect((await own.caller(admin).callLog.list({ tenantId: a, clientIp: "198.51.100.4" })).items).toHaveLength(1);

    // A subject hash is one-way: v1 stays while a row hashed under it remains.
    const status = await own.caller(auditor).kvkk.keys.status();
    expect(status.versions.find((v) => v.version === "v1")).toMatchObject({ current: false, ipRows: 0, subjectRows: 1 });
    expect(await code(own.caller(admin).kvkk.keys.retire({ version: "v1" }))).toBe("CONFLICT");
    await own.caller(admin).kvkk.subject.destroy({ requestId: subjectRequest, method: "delete" });
    await own.caller(admin).kvkk.keys.retire({ version: "v1" });
    expect(await own.db.auditEvent.count({ where: { action: "kvkk.key.retire", targetId: "v1" } })).toBe(1);
    expect(await code(own.caller(admin).kvkk.keys.activate({ version: "v1" }))).toBe("CONFLICT");
    expect(await code(own.caller(admin).kvkk.keys.retire({ version: "v2" }))).toBe("CONFLICT");
  });
});

describe("special categories", () => {
  it("masks a health tenant's rows for an auditor, reason or not, and shows them to the tenant and admins", async () => {
    expect(await code(own.caller(auditor).kvkk.special.mark({ tenantId: h, category: "health" }))).toBe("FORBIDDEN");
    await own.caller(admin).kvkk.special.mark({ tenantId: h, category: "health" });
    const id = await logCall(h, "192.0.2.5", "hasta-7", "special");
    expect(await own.db.callLog.findFirstOrThrow({ where: { requestId: id } })).toMatchObject({ ipKeyVersion: "s1", userHashKeyVersion: "s1" });

    const seen = await own.caller(auditor).callLog.list({ tenantId: h, unmaskReason: "investigating an abuse report from the tenant" });
    expect(seen.items[0]).toMatchObject({ clientIp: "masked", apiKeyId: null, specialCategory: "health" });
    expect(await own.caller(auditor).callLog.get({ requestId: id, unmaskReason: "investigating an abuse report from the tenant" })).toMatchObject({ clientIp: "masked" });
    const read = await own.db.auditEvent.findFirstOrThrow({ where: { action: "calllog.read", actorEmail: auditor.email } });
    expect(read.after).toMatchObject({ specialCategory: "health" });

    expect((await own.caller(tenantH).callLog.list({})).items[0]).toMatchObject({ clientIp: "192.0.2.5", apiKeyId: "key-1" });
    expect((await own.caller(admin).callLog.get({ requestId: id })).clientIp).toBe("192.0.2.5");
    expect(await code(own.caller(tenantA).callLog.get({ requestId: id }))).toBe("NOT_FOUND");
    expect((await own.caller(auditor).kvkk.special.list()).tenants.map((t) => [t.id, t.specialCategory])).toEqual([[h, "health"]]);
  });
});
