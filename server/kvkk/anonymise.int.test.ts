import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { ownDatabase } from "../test/own-db.ts";
import { insertCalls, makeTenantIn } from "../audit/test/fixtures.ts";
import { rollupDirtyHours, rollupHours } from "../usage/rollup.ts";
import { removeRows } from "./remove-rows.ts";

let own: Awaited<ReturnType<typeof ownDatabase>>;
let tenant: string;
const day = new Date(Date.UTC(2026, 9, 14));
const at = (h: number, m: number) => new Date(day.getTime() + h * 3_600_000 + m * 60_000);

/** What the tenant keeps itself: its request log (the ids Kule answered with) and the OTLP spans of its traces. */
interface OwnRecord {
  requestId: string;
  traceId: string;
  startedAt: Date;
  endpointId: string;
  promptTokens: number;
  completionTokens: number;
}
const tenantLog: OwnRecord[] = [];

const usageTotals = async () =>
  (
    await own.pool.query<{ requests: string; prompt: string; completion: string; charged: string }>(
      `SELECT sum(requests) AS requests, sum("promptTokens") AS prompt, sum("completionTokens") AS completion, sum(charged)::text AS charged FROM "UsageHour" WHERE "tenantId" = $1`,
      [tenant],
    )
  ).rows[0]!;

beforeAll(async () => {
  own = await ownDatabase("kule_anon");
  tenant = await makeTenantIn(own.pool);
  // Six calls to one endpoint (a cell big enough to keep it), two to another (too few: they join the tenant's day).
  const calls = [
    ...[0, 1, 2, 3, 4, 5].map((i) => ({ endpointId: "ep-chat", endpointVersionId: "ev-chat", startedAt: at(9 + i, 7 * i), promptTokens: 100 + 17 * i, completionTokens: 40 + 3 * i })),
    ...[0, 1].map((i) => ({ endpointId: "ep-vision", endpointVersionId: "ev-vision", startedAt: at(14, 20 + i), promptTokens: 900 + i, completionTokens: 1 })),
  ];
  const ids = await insertCalls(own.pool, calls.map((c) => ({ tenantId: tenant, userHash: "cd".repeat(32), ...c })));
  for (const [i, c] of calls.entries()) {
    const traceId = randomBytes(16).toString("hex");
    await own.pool.query(`UPDATE "CallLog" SET "traceId" = $1, "routeReason" = 'affinity', "requestClass" = 'long', "fallbackChain" = 'backup:503' WHERE "requestId" = $2`, [traceId, ids[i]]);
    tenantLog.push({ requestId: ids[i]!, traceId, startedAt: c.startedAt, endpointId: c.endpointId, promptTokens: c.promptTokens, completionTokens: c.completionTokens });
  }
  await rollupHours(own.db, day, at(23, 0));
}, 120_000);
afterAll(() => own?.close());

describe("anonymisation (2017 Regulation Art. 10)", () => {
  it("leaves nothing the tenant's own request log or trace spans can be joined to, and the cost pages lose no call", async () => {
    const before = await usageTotals();
    const client = await own.pool.connect();
    try {
      await client.query("BEGIN");
      const rec = await removeRows(client, { actor: null, reason: "retention", method: "anonymize", where: `"tenantId" = '${tenant}'`, tenantId: tenant, policy: {}, periodTo: at(24, 0) });
      await client.query("COMMIT");
      expect(rec.rowCount).toBe(8);
    } finally {
      client.release();
    }

    // Join every stored call-level record against the tenant's own: by request id, trace id, or time + endpoint + tokens.
    const rows = (await own.pool.query(`SELECT "requestId", "traceId", "startedAt", "endpointId", "promptTokens", "completionTokens" FROM "CallLog" WHERE "tenantId" = $1`, [tenant])).rows;
    expect(rows).toEqual([]);
    const folds = await own.db.callLogFold.findMany({ where: { tenantId: tenant }, orderBy: { endpointId: "asc" } });
    const matches = tenantLog.filter((t) =>
      folds.some((f) => f.hour.getTime() === Math.floor(t.startedAt.getTime() / 3_600_000) * 3_600_000 || (Number(f.promptTokens) === t.promptTokens && Number(f.completionTokens) === t.completionTokens)),
    );
    expect(matches).toEqual([]);
    const text = JSON.stringify(folds, (_k, v) => (typeof v === "bigint" ? String(v) : v));
    for (const t of tenantLog) {
      expect(text).not.toContain(t.requestId);
      expect(text).not.toContain(t.traceId);
    }
    // The big cell keeps its endpoint; the small one joins the tenant's day with neither endpoint nor version.
    expect(folds.map((f) => [f.endpointId, f.endpointVersionId, f.requests, f.hour.toISOString()])).toEqual([
      ["", "", 2, day.toISOString()],
      ["ep-chat", "ev-chat", 6, day.toISOString()],
    ]);

    // The roll-up reads the fold: the day's totals and charges are what they were.
    await rollupDirtyHours(own.db);
    expect(await usageTotals()).toEqual(before);
    const hours = (await own.pool.query(`SELECT DISTINCT hour FROM "UsageHour" WHERE "tenantId" = $1`, [tenant])).rows;
    expect(hours.map((h) => (h.hour as Date).toISOString())).toEqual([day.toISOString()]);
  });

  it("adds a later fold of the same day to the first (a lone call to the tenant's day), so a second run loses nothing either", async () => {
    const before = await usageTotals();
    await insertCalls(own.pool, [{ tenantId: tenant, endpointId: "ep-chat", endpointVersionId: "ev-chat", startedAt: at(20, 0), promptTokens: 5, completionTokens: 5 }]);
    const client = await own.pool.connect();
    try {
      await client.query("BEGIN");
      await removeRows(client, { actor: null, reason: "retention", method: "anonymize", where: `"tenantId" = '${tenant}'`, tenantId: tenant, policy: {}, periodTo: at(24, 0) });
      await client.query("COMMIT");
    } finally {
      client.release();
    }
    await rollupDirtyHours(own.db);
    const after = await usageTotals();
    expect(Number(after.requests)).toBe(Number(before.requests) + 1);
    expect(Number(after.prompt)).toBe(Number(before.prompt) + 5);
    const folds = await own.db.callLogFold.findMany({ where: { tenantId: tenant }, orderBy: { endpointId: "asc" } });
    expect(folds.map((f) => [f.endpointId, f.requests])).toEqual([["", 3], ["ep-chat", 6]]);
  });
});
