import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownDatabase } from "../test/own-db.ts";
import { discoverSimulatedCluster } from "../../scripts/lib/discover.ts";
import { seed } from "../../prisma/seed.ts";
import { seedHistory, type HistoryResult } from "../../prisma/seed/history.ts";
import { INCIDENTS } from "../../prisma/seed/history-mix.ts";

// The demo's 90 days of history, seeded into a database of this file's own (the seed refuses a
// sealed call log, and its volume would skew other files' sums). A third of the demo's volume keeps
// the suite lean; the shape does not depend on it.
let own: Awaited<ReturnType<typeof ownDatabase>>;
let result: HistoryResult;
const NOW = new Date("2026-12-04T12:20:00Z");

beforeAll(async () => {
  own = await ownDatabase("history");
  await discoverSimulatedCluster(own.db);
  await seed(own.db);
  result = await seedHistory(own.db, { now: NOW, scale: 0.3 });
}, 120_000);
afterAll(async () => own?.close());

const q = <T>(sql: string) => own.db.$queryRawUnsafe<T[]>(sql);

describe("the demo's history", () => {
  it("covers 90 days hour by hour, up to the last whole hour, and records how long it took", async () => {
    expect(result.seeded).toBe(true);
    const [span] = await q<{ hours: number; first: Date; last: Date }>(`SELECT count(DISTINCT date_trunc('hour', "startedAt"))::int AS hours, min("startedAt") AS first, max("startedAt") AS last FROM "CallLog"`);
    expect(span!.hours).toBeGreaterThan(90 * 24 * 0.97); // a few night hours of a small pair may hold no call
    expect(span!.first.getTime()).toBeGreaterThanOrEqual(NOW.getTime() - 90 * 86_400_000 - 3_600_000);
    expect(span!.last.getTime()).toBeLessThan(Date.parse("2026-12-04T12:00:00Z"));
    const marker = await own.db.demoSeedMarker.findUniqueOrThrow({ where: { name: "call-log-history" } });
    const details = marker.details as { rows: number; ms: number };
    expect(details.rows).toBe(result.rows);
    expect(details.ms).toBeGreaterThan(0);
    console.log(`history seed: ${result.rows} rows in ${result.ms} ms (insert ${result.insertMs} ms, roll-ups ${result.rollupMs} ms)`);
  });

  it("draws every call apart: its own instant, latency and size, not its hour's copy", async () => {
    const [d] = await q<{ n: number; instants: number; latencies: number; sizes: number }>(`
      SELECT count(*)::int AS n, count(DISTINCT "startedAt")::int AS instants,
             count(DISTINCT "endedAt" - "startedAt")::int AS latencies, count(DISTINCT ("promptTokens", "completionTokens"))::int AS sizes
        FROM "CallLog" WHERE "startedAt" >= '2026-12-01T09:00:00Z' AND "startedAt" < '2026-12-01T10:00:00Z'`);
    expect(d!.n).toBeGreaterThan(50);
    expect(d!.instants).toBeGreaterThan(0.95 * d!.n);
    expect(d!.latencies).toBeGreaterThan(0.6 * d!.n); // in whole milliseconds: short embeddings tie
    expect(d!.sizes).toBeGreaterThan(0.5 * d!.n);
  });

  it("is busier on weekdays than at weekends, and by day than at night (Istanbul time)", async () => {
    const [w] = await q<{ weekday: number; weekend: number; noon: number; night: number }>(`
      WITH d AS (SELECT date_trunc('day', "startedAt" + interval '3 hours') AS day, count(*) AS n FROM "CallLog" GROUP BY 1),
           h AS (SELECT extract(hour FROM "startedAt" + interval '3 hours') AS hour, count(*) AS n FROM "CallLog" GROUP BY 1)
      SELECT (SELECT avg(n) FROM d WHERE extract(isodow FROM day) < 6)::float8 AS weekday, (SELECT avg(n) FROM d WHERE extract(isodow FROM day) >= 6)::float8 AS weekend,
             (SELECT n FROM h WHERE hour = 11)::float8 AS noon, (SELECT n FROM h WHERE hour = 3)::float8 AS night`);
    expect(w!.weekday).toBeGreaterThan(1.8 * w!.weekend);
    expect(w!.noon).toBeGreaterThan(5 * w!.night);
  });

  it("has its incidents: an error burst on chat and a latency spike on vision, in the hours the seed recorded", async () => {
    // Compared with the rest of the same endpoint's calls: a whole day of a few hundred random
    // calls (a quiet Saturday) can look worse than an incident diluted into its day.
    const marker = await own.db.demoSeedMarker.findUniqueOrThrow({ where: { name: "call-log-history" } });
    const windows = (marker.details as { incidents: { endpoint: string; from: string; to: string }[] }).incidents;
    expect(windows.map((w) => w.from.slice(0, 10))).toEqual(INCIDENTS.map((i) => new Date(Math.floor(NOW.getTime() / 86_400_000) * 86_400_000 - i.daysAgo * 86_400_000).toISOString().slice(0, 10)));
    const inside = async (w: { endpoint: string; from: string; to: string }) => {
      const rows = await q<{ during: boolean; rate: number; secs: number; n: number }>(`
        SELECT (c."startedAt" >= '${w.from}' AND c."startedAt" < '${w.to}') AS during, avg((c.status >= 500)::int)::float8 AS rate,
               avg(extract(epoch FROM c."endedAt" - c."startedAt"))::float8 AS secs, count(*)::int AS n
          FROM "CallLog" c WHERE c."endpointId" = '${w.endpoint}' GROUP BY 1`);
      return { during: rows.find((r) => r.during)!, rest: rows.find((r) => !r.during)! };
    };
    const chat = await inside(windows[0]!);
    expect(chat.during.n).toBeGreaterThan(20);
    expect(chat.during.rate).toBeGreaterThan(5 * chat.rest.rate);
    const vision = await inside(windows[1]!);
    expect(vision.during.n).toBeGreaterThan(20);
    expect(vision.during.secs).toBeGreaterThan(2 * vision.rest.secs);
  });

  it("is rolled up: hours and days add up to the raw rows, and to the month spend the budgets read", async () => {
    const [raw] = await q<{ n: number; e: number; p: number }>(`SELECT count(*)::int AS n, count(*) FILTER (WHERE status >= 500)::int AS e, sum("promptTokens")::float8 AS p FROM "CallLog"`);
    const [hours] = await q<{ n: number; e: number; p: number }>(`SELECT sum(requests)::int AS n, sum(errors)::int AS e, sum("promptTokens")::float8 AS p FROM "UsageHour"`);
    const [days] = await q<{ n: number; e: number; p: number }>(`SELECT sum(requests)::int AS n, sum(errors)::int AS e, sum("promptTokens")::float8 AS p FROM "UsageDay"`);
    expect(hours).toEqual(raw);
    expect(days).toEqual(raw);
    expect(await q(`SELECT day FROM (SELECT date_trunc('day', "startedAt")::date AS day, count(*) AS n FROM "CallLog" GROUP BY 1) r FULL JOIN (SELECT day, sum(requests) AS n FROM "UsageDay" GROUP BY 1) u USING (day) WHERE r.n IS DISTINCT FROM u.n`)).toEqual([]);
    // The charges the roll-ups hold per tenant and month are the month spend the live trigger kept.
    expect(await q(`SELECT * FROM (SELECT "tenantId", date_trunc('month', hour)::date AS month, sum(charged) AS c FROM "UsageHour" GROUP BY 1, 2) h
                    FULL JOIN "TenantMonthSpend" s USING ("tenantId", month) WHERE round(h.c, 6) IS DISTINCT FROM round(s.spent, 6)`)).toEqual([]);
    expect(await own.db.usageDirtyHour.count()).toBe(0);
    // Every seeded hour has its infrastructure cost (no replicas here: all of it idle capacity).
    expect(await own.db.costHour.count({ where: { subject: "idle", cost: { gt: 0 } } })).toBe(90 * 24);
  });

  it("leaves every tenant serving: this month's spend far below budgets and credit limits", async () => {
    for (const t of result.monthSpend) {
      if (t.budget) expect(Number(t.spent)).toBeLessThan(Number(t.budget) / 10);
      if (t.creditLimit) expect(Number(t.spent)).toBeLessThan(Number(t.creditLimit) / 10);
    }
    expect(await own.db.tenant.count({ where: { OR: [{ budgetBlockedAt: { not: null } }, { creditBlockedAt: { not: null } }] } })).toBe(0);
  });

  it("happens once: a restart finds the marker and seeds nothing", async () => {
    const before = await own.db.callLog.count();
    const again = await seedHistory(own.db, { now: new Date(NOW.getTime() + 3_600_000) });
    expect(again.seeded).toBe(false);
    expect(again.reason).toMatch(/already seeded/);
    expect(await own.db.callLog.count()).toBe(before);
  });
});
