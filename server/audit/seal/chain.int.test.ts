import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownDatabase } from "../../test/own-db.ts";
import { hoursAgo, insertCalls, makeTenantIn } from "../test/fixtures.ts";
import { sealAll } from "./seal.ts";
import { verifyChains } from "./verify.ts";

let own: Awaited<ReturnType<typeof ownDatabase>>;
let ids: string[];
const now = new Date();

beforeAll(async () => {
  own = await ownDatabase("kule_chain");
  const tenant = await makeTenantIn(own.pool);
  // Five hours of calls, two per hour, three to seven hours ago; and one row in the open hour.
  ids = await insertCalls(own.pool, [7, 7, 6, 6, 5, 5, 4, 4, 3, 3].map((h, i) => ({ tenantId: tenant, startedAt: new Date(hoursAgo(h, now.getTime()).getTime() + i * 1000) })));
  await insertCalls(own.pool, [{ tenantId: tenant, startedAt: new Date(now.getTime() - 60_000) }]);
  await own.pool.query(`INSERT INTO "AuditEvent" (action, "targetType", "targetId", "after", at) VALUES ('endpoint.weights.set', 'endpoint', 'e1', '{"weights":[{"v":"1.0","w":100}]}', $1 AT TIME ZONE 'UTC')`, [hoursAgo(5, now.getTime()).toISOString()]);
  const sealed = await sealAll(own.pool, { now, graceMinutes: 60 });
  // From the first row's hour through the hour that ended more than an hour ago.
  expect(sealed.find((s) => s.stream === "call_log")).toMatchObject({ segments: 6, rows: 10 });
}, 60_000);
afterAll(() => own?.close());

const at = (h: number) => hoursAgo(h, now.getTime()).toISOString();

describe("the sealed chain", () => {
  it("passes on an untouched log, rows in the open hour not yet covered", async () => {
    const r = await verifyChains(own.pool);
    expect(r.firstBad).toBeNull();
    expect(r.ok).toBe(true);
    expect(r.streams.find((s) => s.stream === "call_log")!.rows).toBe(10);
  });

  it("names the segment of a row changed directly in PostgreSQL, and passes again once it is undone", async () => {
    await own.pool.query(`UPDATE "CallLog" SET "completionTokens" = 2 WHERE "requestId" = $1`, [ids[4]]);
    const r = await verifyChains(own.pool);
    expect(r.ok).toBe(false);
    expect(r.firstBad).toMatchObject({ stream: "call_log", start: at(5), reason: "rows changed", sealedRows: 2, actualRows: 2 });
    await own.pool.query(`UPDATE "CallLog" SET "completionTokens" = 20 WHERE "requestId" = $1`, [ids[4]]);
    expect((await verifyChains(own.pool)).ok).toBe(true);
  });

  it("names the segment a row was deleted from", async () => {
    const row = (await own.pool.query(`DELETE FROM "CallLog" WHERE "requestId" = $1 RETURNING *`, [ids[6]])).rows[0];
    const r = await verifyChains(own.pool);
    expect(r.firstBad).toMatchObject({ stream: "call_log", start: at(4), reason: "rows missing", sealedRows: 2, actualRows: 1 });
    const cols = Object.keys(row).map((c) => `"${c}"`).join(",");
    await own.pool.query(`INSERT INTO "CallLog" (${cols}) VALUES (${Object.keys(row).map((_, i) => `$${i + 1}`).join(",")})`, Object.values(row));
    expect((await verifyChains(own.pool)).ok).toBe(true);
  });

  it("names the segment a row was inserted into, even an hour that was empty when sealed", async () => {
    const tenant = (await own.pool.query(`SELECT "tenantId" FROM "CallLog" LIMIT 1`)).rows[0].tenantId as string;
    const [forged] = await insertCalls(own.pool, [{ tenantId: tenant, startedAt: new Date(hoursAgo(2, now.getTime()).getTime() + 5000) }]);
    const r = await verifyChains(own.pool);
    expect(r.firstBad).toMatchObject({ stream: "call_log", start: at(2), reason: "rows added", sealedRows: 0, actualRows: 1 });
    await own.pool.query(`DELETE FROM "CallLog" WHERE "requestId" = $1`, [forged]);
  });

  it("names an audit event's hour when the event is rewritten, and a seal altered to match", async () => {
    await own.pool.query(`UPDATE "AuditEvent" SET "after" = '{"weights":[{"v":"1.0","w":0}]}' WHERE action = 'endpoint.weights.set'`);
    expect((await verifyChains(own.pool)).firstBad).toMatchObject({ stream: "audit_event", start: at(5), reason: "rows changed" });
    await own.pool.query(`UPDATE "AuditEvent" SET "after" = '{"weights":[{"v":"1.0","w":100}]}' WHERE action = 'endpoint.weights.set'`);
    // Rewriting a segment's digest to fit forged rows breaks the link to the next segment.
    await own.pool.query(`UPDATE "SealSegment" SET digest = repeat('1', 64) WHERE stream = 'call_log' AND start = $1::timestamptz AT TIME ZONE 'UTC'`, [at(6)]);
    expect((await verifyChains(own.pool)).firstBad).toMatchObject({ stream: "call_log", start: at(6), reason: "the seal itself was altered (chain broken)" });
  });
});
