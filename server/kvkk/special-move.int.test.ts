import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { ownDatabase } from "../test/own-db.ts";
import { makeTenantIn } from "../audit/test/fixtures.ts";
import { makeEndpoint } from "../test/harness.ts";
import { env } from "../env.ts";
import { findVersion } from "../call-log/keys/keyring.ts";
import { processRings } from "../call-log/keys/rings.ts";
import { currentKeys, registerRings } from "../call-log/keys/registry.ts";
import { copyRows, type CallLogRow } from "../gateway/call-log.ts";
import { protectRow } from "../gateway/row-keys.ts";
import { sealAll } from "../audit/seal/seal.ts";
import { rekeyBatch } from "./rekey.ts";
import type { Actor } from "../auth/actor.ts";

const secret = () => randomBytes(32).toString("base64");
const saved = { std: env.KULE_SUBJECT_HASH_KEYS, special: env.KULE_SPECIAL_SUBJECT_HASH_KEYS };
let own: Awaited<ReturnType<typeof ownDatabase>>;
let t: string, u: string;
let admin: Actor, auditor: Actor, tenantT: Actor, tenantU: Actor;
const code = async (p: Promise<unknown>) => p.then(() => "OK", (e) => (e instanceof TRPCError ? e.code : String(e)));

async function actorIn(role: Actor["role"], tenantId: string | null = null): Promise<Actor> {
  const x = await own.db.user.create({ data: { email: `${role}-${randomUUID().slice(0, 8)}@t.local`, name: role, passwordHash: "x", membership: { create: { role, tenantId } } } });
  return { userId: x.id, email: x.email, name: x.name, role, tenantId };
}

/** A call logged as a gateway logs it, under the standard ring (the tenant was not marked yet), three hours ago so it can be sealed. */
async function logStandardCall(tenantId: string, ip: string, user: string, endpointId: string | null = null) {
  const cur = await currentKeys(own.pool);
  const keys = { standard: findVersion(processRings().standard, cur.standard!.version)!, special: findVersion(processRings().special, cur.special!.version)! };
  const at = Date.now() - 3 * 3_600_000;
  const row: CallLogRow = { requestId: `r-${randomUUID()}`, tenantId, apiKeyId: "key-1", endpointId, endpointVersionId: null, replica: null, region: "tr-ist", clientIp: ip, startedAt: at, endedAt: at + 200, ttftMs: null, status: 200, errorClass: null, promptTokens: 1, completionTokens: 1 };
  await copyRows(own.pool, [protectRow(row, user, keys, "standard")]);
  return row.requestId;
}
const versionsOf = async (requestId: string) => own.db.callLog.findFirstOrThrow({ where: { requestId }, select: { ipKeyVersion: true, userHashKeyVersion: true } });

beforeAll(async () => {
  own = await ownDatabase("kule_special_move");
  env.KULE_SUBJECT_HASH_KEYS = `v1:${secret()}`;
  env.KULE_SPECIAL_SUBJECT_HASH_KEYS = `s1:${secret()}`;
  await registerRings(own.pool, processRings());
  await own.pool.query("SELECT kule_call_log_ensure_partitions(3)");
  [t, u] = [await makeTenantIn(own.pool), await makeTenantIn(own.pool)];
  [admin, auditor, tenantT, tenantU] = [await actorIn("admin"), await actorIn("auditor"), await actorIn("tenant", t), await actorIn("tenant", u)];
}, 120_000);
afterAll(async () => {
  Object.assign(env, { KULE_SUBJECT_HASH_KEYS: saved.std, KULE_SPECIAL_SUBJECT_HASH_KEYS: saved.special });
  await own?.close();
});

describe("rows written before a tenant was marked special (KVKK Art. 6)", () => {
  let id: string;

  it("marking schedules the move of the tenant's client IPs to the special keys, shown on the page and in the audit event", async () => {
    id = await logStandardCall(t, "203.0.113.9", "hasta-1");
    await logStandardCall(u, "203.0.113.10", "someone-else");
    await sealAll(own.pool, { now: new Date(), graceMinutes: 60 });
    expect(await versionsOf(id)).toEqual({ ipKeyVersion: "v1", userHashKeyVersion: "v1" });

    expect(await code(own.caller(auditor).kvkk.special.mark({ tenantId: t, category: "health" }))).toBe("FORBIDDEN");
    await own.caller(admin).kvkk.special.mark({ tenantId: t, category: "health" });
    const moves = (await own.caller(auditor).kvkk.special.list()).moves;
    expect(moves).toEqual([{ tenantId: t, slug: t, toRing: "special", ipRows: 1, subjectRows: 1 }]);
    const marked = await own.db.auditEvent.findFirstOrThrow({ where: { action: "kvkk.special.mark", targetId: t } });
    expect(marked.after).toMatchObject({ specialCategory: "health", rekeyScheduled: [{ toRing: "special", ipRows: 1 }] });
  });

  it("the periodic re-key moves them, sealed hours included, and the seal still holds; subject hashes stay (one-way)", async () => {
    const done = await rekeyBatch(own.pool, { actor: null, batch: 5000 });
    expect(done).toMatchObject({ rekeyed: 1, movedToRing: { special: 1 }, remaining: 0 });
    expect(await versionsOf(id)).toEqual({ ipKeyVersion: "s1", userHashKeyVersion: "v1" });
    // The other tenant's row did not move.
    expect((await own.db.callLog.findFirstOrThrow({ where: { tenantId: u } })).ipKeyVersion).toBe("v1");
    expect((await own.db.auditEvent.findFirstOrThrow({ where: { action: "kvkk.key.rekey" }, orderBy: { id: "desc" } })).after).toMatchObject({ movedToRing: { special: 1 } });
    expect((await own.caller(auditor).kvkk.special.list()).moves).toEqual([{ tenantId: t, slug: t, toRing: "special", ipRows: 0, subjectRows: 1 }]);

    expect((await own.caller(tenantT).callLog.get({ requestId: id })).clientIp).toBe("203.0.113.9");
    expect((await own.caller(admin).callLog.list({ tenantId: t, clientIp: "203.0.113.9" })).items).toHaveLength(1);
    expect(await code(own.caller(tenantU).callLog.get({ requestId: id }))).toBe("NOT_FOUND");
    expect((await own.caller(tenantT).kvkk.subject.find({ user: "hasta-1" })).rowsFound).toBe(1);
    expect((await own.caller(auditor).callLog.seal.verify()).ok).toBe(true);
  });

  it("removing the marking moves them back to the standard keys", async () => {
    await own.caller(admin).kvkk.special.mark({ tenantId: t, category: null });
    expect((await own.caller(admin).kvkk.special.list()).moves).toEqual([{ tenantId: t, slug: t, toRing: "standard", ipRows: 1, subjectRows: 0 }]);
    expect(await own.caller(admin).kvkk.keys.rekey({ batch: 100 })).toMatchObject({ rekeyed: 1, movedToRing: { standard: 1 }, remaining: 0 });
    expect(await versionsOf(id)).toEqual({ ipKeyVersion: "v1", userHashKeyVersion: "v1" });
    expect((await own.caller(tenantT).callLog.get({ requestId: id })).clientIp).toBe("203.0.113.9");
    expect((await own.caller(admin).kvkk.special.list()).moves).toEqual([]);
  });

  it("an endpoint's marking moves the rows of that endpoint only, whichever tenant called it", async () => {
    const { endpoint } = await makeEndpoint(own.db);
    const viaEndpoint = await logStandardCall(u, "198.51.100.20", "hasta-2", endpoint.id);
    await own.caller(admin).kvkk.special.mark({ endpointId: endpoint.id, category: "biometric" });
    expect((await own.db.auditEvent.findFirstOrThrow({ where: { action: "kvkk.special.mark", targetId: endpoint.id } })).after).toMatchObject({ rekeyScheduled: [{ tenantId: u, toRing: "special", ipRows: 1 }] });
    await rekeyBatch(own.pool, { actor: null, batch: 5000 });
    expect((await versionsOf(viaEndpoint)).ipKeyVersion).toBe("s1");
    expect((await own.db.callLog.findMany({ where: { tenantId: u, NOT: { requestId: viaEndpoint } } })).map((r) => r.ipKeyVersion)).toEqual(["v1"]);
    expect((await own.caller(tenantU).callLog.get({ requestId: viaEndpoint })).clientIp).toBe("198.51.100.20");
    // With an endpoint marked, a row without an endpoint still moves both ways with its tenant's marking.
    await own.caller(admin).kvkk.special.mark({ tenantId: t, category: "health" });
    await rekeyBatch(own.pool, { actor: null, batch: 5000 });
    expect((await versionsOf(id)).ipKeyVersion).toBe("s1");
    await own.caller(admin).kvkk.special.mark({ tenantId: t, category: null });
    expect(await rekeyBatch(own.pool, { actor: null, batch: 5000 })).toMatchObject({ movedToRing: { standard: 1 }, remaining: 0 });
    expect((await versionsOf(id)).ipKeyVersion).toBe("v1");
  });
});
