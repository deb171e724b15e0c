import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownDatabase } from "../test/own-db.ts";
import { insertCalls, makeTenantIn } from "../audit/test/fixtures.ts";
import { sealAll } from "../audit/seal/seal.ts";
import { verifyChains } from "../audit/seal/verify.ts";
import { runDestruction } from "./destruction.ts";
import { removeRows } from "./remove-rows.ts";
import type { Actor } from "../auth/actor.ts";

let own: Awaited<ReturnType<typeof ownDatabase>>;
// Twenty minutes into the hour before this one: the rows placed seconds apart below then share
// their hour whatever the clock says (the forged row and the destroyed one must, for the last test).
const now = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 40 * 60_000);
const daysAgo = (d: number, plusMs = 0) => new Date(now.getTime() - d * 86_400_000 + plusMs);
let a: string, b: string, c: string;
let aKept: string[], bKept: string[], cOld: string[];
let admin: Actor;
let oldMonth: string;

beforeAll(async () => {
  own = await ownDatabase("kule_destroy");
  [a, b, c] = [await makeTenantIn(own.pool), await makeTenantIn(own.pool), await makeTenantIn(own.pool)];
  await own.pool.query(`INSERT INTO "TenantRetention" ("tenantId", days, method, "updatedAt") VALUES ($1, 30, 'delete', now()), ($2, 30, 'anonymize', now())`, [a, c]);
  // A month long past, holding only tenant A's rows: its partition can go whole.
  const old = daysAgo(200);
  oldMonth = (await own.pool.query(`SELECT kule_call_log_partition($1::timestamptz AT TIME ZONE 'UTC') AS p`, [old])).rows[0].p;
  const monthStart = new Date(Date.UTC(old.getUTCFullYear(), old.getUTCMonth(), 3));
  await insertCalls(own.pool, [0, 1, 2].map((i) => ({ tenantId: a, startedAt: new Date(monthStart.getTime() + i * 3_600_000) })));
  await insertCalls(own.pool, [0, 1, 2, 3].map((i) => ({ tenantId: a, startedAt: daysAgo(40, i * 60_000) })));
  aKept = await insertCalls(own.pool, [0, 1].map((i) => ({ tenantId: a, startedAt: daysAgo(10, i * 60_000) })));
  bKept = await insertCalls(own.pool, [0, 1, 2].map((i) => ({ tenantId: b, startedAt: daysAgo(40, i * 60_000 + 30_000) })));
  cOld = await insertCalls(own.pool, [0, 1].map((i) => ({ tenantId: c, startedAt: daysAgo(40, i * 60_000 + 10_000), userHash: "ab".repeat(32) })));
  await insertCalls(own.pool, [{ tenantId: c, startedAt: daysAgo(10) }]);
  await sealAll(own.pool, { now, graceMinutes: 60 });
  const u = await own.db.user.create({ data: { email: "admin-d@t.local", name: "Admin", passwordHash: "x", membership: { create: { role: "admin" } } } });
  admin = { userId: u.id, email: u.email, name: u.name, role: "admin", tenantId: null };
  expect((await verifyChains(own.pool)).ok).toBe(true);
}, 120_000);
afterAll(() => own?.close());

describe("destruction past retention", () => {
  it("removes exactly the rows past each tenant's retention, drops a month whole, anonymizes where asked", async () => {
    const res = await runDestruction(own.pool, { actor: admin, now });
    const left = await own.pool.query<{ requestId: string; tenantId: string; clientIp: string | null; apiKeyId: string | null; userHash: string | null; promptTokens: number }>(`SELECT * FROM "CallLog"`);
    const ofA = left.rows.filter((r) => r.tenantId === a).map((r) => r.requestId);
    expect(ofA.sort()).toEqual([...aKept].sort());
    expect(left.rows.filter((r) => r.tenantId === b).map((r) => r.requestId).sort()).toEqual([...bKept].sort());
    // Anonymised, not pseudonymised: no row of one call is left; the two calls are one day's
    // totals (too few to keep their endpoint), and tenant C's call inside retention is untouched.
    expect(left.rows.filter((r) => cOld.includes(r.requestId))).toHaveLength(0);
    expect(left.rows.filter((r) => r.tenantId === c).map((r) => r.clientIp)).toEqual(["203.0.113.7"]);
    const folds = await own.db.callLogFold.findMany({ where: { tenantId: c } });
    expect(folds.map((f) => [f.hour.getTime() % 86_400_000, f.endpointId, f.endpointVersionId, f.requests, Number(f.promptTokens), Number(f.completionTokens)])).toEqual([[0, "", "", 2, 20, 40]]);
    expect((await own.pool.query(`SELECT to_regclass($1) AS t`, [`public."${oldMonth}"`])).rows[0].t).toBeNull();
    expect(res.rows).toBe(3 + 4 + 2);
    const recs = await own.db.destructionRecord.findMany({ orderBy: { runAt: "asc" } });
    expect(recs.map((r) => [r.tenantId, r.method, r.rowCount, r.partitionsDropped])).toEqual(
      expect.arrayContaining([
        [null, "delete", 3, [oldMonth]],
        [a, "delete", 4, []],
        [c, "anonymize", 2, []],
      ]),
    );
    expect((recs.find((r) => r.method === "anonymize")!.policy as { technique: string[] }).technique[0]).toMatch(/no row of one call is left/);
    expect(recs.every((r) => r.keepUntil.getTime() - r.runAt.getTime() >= 3 * 365 * 86_400_000)).toBe(true);
    expect(await own.db.auditEvent.count({ where: { action: "kvkk.destruction", actorEmail: admin.email } })).toBe(3);
  });

  it("leaves a chain that still checks, also once the hour of the destruction is sealed", async () => {
    expect(await verifyChains(own.pool)).toMatchObject({ ok: true, firstBad: null });
    await sealAll(own.pool, { now: new Date(now.getTime() + 3 * 3_600_000), graceMinutes: 60 });
    expect((await verifyChains(own.pool)).ok).toBe(true);
  });

  it("a second run finds nothing more to do", async () => {
    expect((await runDestruction(own.pool, { actor: admin, now })).rows).toBe(0);
  });

  it("keeps destruction records: deleting one is refused, and one whose adjustments were edited names its hour", async () => {
    const rec = await own.db.destructionRecord.findFirstOrThrow({ where: { tenantId: a } });
    await expect(own.pool.query(`DELETE FROM "DestructionRecord" WHERE id = $1`, [rec.id])).rejects.toThrow(/kept until/);
    const adj = rec.adjustments as { start: string; afterCount: number }[];
    expect(adj.length).toBeGreaterThan(0);
    await own.pool.query(`UPDATE "DestructionRecord" SET adjustments = $1 WHERE id = $2`, [JSON.stringify(adj.map((x) => ({ ...x, afterCount: x.afterCount + 1 }))), rec.id]);
    const r = await verifyChains(own.pool);
    expect(r.ok).toBe(false);
    expect(r.firstBad).toMatchObject({ stream: "call_log", start: adj[0]!.start, reason: expect.stringContaining(`destruction record ${rec.id}`) });
    // Rewritten into the earlier additive form, the record excuses nothing: its hour no longer checks.
    await own.pool.query(`UPDATE "DestructionRecord" SET adjustments = $1 WHERE id = $2`, [JSON.stringify(adj.map((x) => ({ start: x.start, removedCount: 0, removedDigest: "0".repeat(64), addedCount: 0, addedDigest: "0".repeat(64) }))), rec.id]);
    expect((await verifyChains(own.pool)).firstBad).toMatchObject({ stream: "call_log", start: adj[0]!.start });
    await own.pool.query(`UPDATE "DestructionRecord" SET adjustments = $1 WHERE id = $2`, [JSON.stringify(adj), rec.id]);
    expect((await verifyChains(own.pool)).ok).toBe(true);
  });

  it("does not launder a row forged before it ran: the hour is named, with the destruction", async () => {
    await own.pool.query(`UPDATE "CallLog" SET "promptTokens" = 99 WHERE "requestId" = $1`, [bKept[0]]);
    const client = await own.pool.connect();
    try {
      await client.query("BEGIN");
      const rec = await removeRows(client, { actor: admin, reason: "subject_request", method: "delete", where: `"requestId" = '${bKept[1]}'`, tenantId: b, policy: {}, periodTo: now });
      await client.query("COMMIT");
      const hour = new Date(Math.floor(daysAgo(40, 90_000).getTime() / 3_600_000) * 3_600_000).toISOString();
      expect((await verifyChains(own.pool)).firstBad).toMatchObject({ stream: "call_log", start: hour, reason: `rows changed before destruction ${rec.id} ran` });
    } finally {
      client.release();
    }
  });
});
