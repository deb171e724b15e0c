import type { PrismaClient } from "../db/generated/client.ts";
import { bucketsSql } from "./histogram.ts";
import { dayOf, markDayDirty } from "./daily.ts";

// What a call is charged and the price in force at its start are SQL functions of the database
// (kule_call_charge, kule_price_at: migration limits_budgets_retire), shared with the live month
// spend that enforces budgets, so the two can never disagree.
const CHARGE_SQL = `kule_call_charge(c.status, c."endpointId", c."promptTokens", c."completionTokens", pp."inputPer1M", pp."outputPer1M", pp."perRequest")`;

const LATENCY_MS = `(EXTRACT(EPOCH FROM (c."endedAt" - c."startedAt")) * 1000)`;

/**
 * The roll-up of every call-log hour from $1 through $2 (hour starts, inclusive): one row per
 * hour × tenant × key × endpoint × version × request class. Each call's latency and charge are computed once, in
 * the inner query; the outer one only sums.
 */
const ROLLUP_SQL = `INSERT INTO "UsageHour" (hour, "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "requestClass", requests, errors, "promptTokens", "completionTokens", charged, currency, "latencySumMs", "ttftSumMs", "ttftCount", "latencyBuckets", "ttftBuckets")
   SELECT c.hour, c."tenantId", c."apiKeyId", c."endpointId", c."versionId", c."requestClass",
          count(*)::int, count(*) FILTER (WHERE c.status >= 500)::int,
          sum(c."promptTokens"), sum(c."completionTokens"), sum(c.charge), min(c.currency),
          round(sum(c.lat))::bigint, coalesce(sum(c."ttftMs"), 0)::bigint, count(c."ttftMs")::int,
          ${bucketsSql("c.lat")}, ${bucketsSql(`c."ttftMs"`)}
     FROM (
       SELECT date_trunc('hour', c."startedAt") AS hour, c."tenantId", coalesce(c."apiKeyId", '') AS "apiKeyId", coalesce(c."endpointId", '') AS "endpointId", coalesce(c."endpointVersionId", '') AS "versionId", coalesce(c."requestClass", '') AS "requestClass",
              c.status, c."promptTokens", c."completionTokens", c."ttftMs", ${LATENCY_MS} AS lat, ${CHARGE_SQL} AS charge, coalesce(pl.currency, 'TRY') AS currency
         FROM "CallLog" c
         JOIN "Tenant" t ON t.id = c."tenantId"
         LEFT JOIN "PricePlan" pl ON pl.id = t."pricePlanId"
         LEFT JOIN LATERAL kule_price_at(t."pricePlanId", c."endpointId", c."startedAt") pp ON true
        WHERE c."startedAt" >= $1::timestamp AND c."startedAt" < $2::timestamp + interval '1 hour'
     ) c
    GROUP BY 1, 2, 3, 4, 5, 6`;

/**
 * Recomputes one hour of roll-ups whole from the call log, in one transaction: running it twice
 * gives the same rows (idempotent), and a reader never sees half an hour. The hour's day is marked
 * for the daily roll-up in the same transaction. Given the `generation` of the hour's dirty mark,
 * it also unmarks the hour at that generation only (rows flushed meanwhile leave it marked), and
 * returns null without doing anything when another process is rolling up the same hour.
 */
export async function rollupHour(db: PrismaClient, hour: Date, generation?: bigint): Promise<number | null> {
  return db.$transaction(async (tx) => {
    if (generation !== undefined) {
      const [lock] = await tx.$queryRaw<{ mine: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtext('kule_usage_hour'), (extract(epoch FROM ${hour}::timestamp) / 3600)::int) AS mine`;
      if (!lock?.mine) return null;
    }
    await tx.$executeRaw`DELETE FROM "UsageHour" WHERE hour = ${hour}`;
    const inserted = await tx.$executeRawUnsafe(ROLLUP_SQL, hour, hour);
    await markDayDirty(tx, hour);
    if (generation !== undefined) await tx.$executeRaw`DELETE FROM "UsageDirtyHour" WHERE hour = ${hour} AND generation = ${generation}`;
    return inserted;
  });
}

/**
 * Rolls up every hour the call log marked (its insert trigger fills "UsageDirtyHour"). Each hour
 * is unmarked in the transaction that recomputes it, and only if nothing new arrived meanwhile,
 * so neither a row landing mid-pass nor a crash mid-pass is ever missed. Several processes may
 * run this: an advisory lock gives each hour to one of them.
 */
export async function rollupDirtyHours(db: PrismaClient, opts: { maxHours?: number } = {}): Promise<{ hours: number; rows: number }> {
  const dirty = await db.$queryRaw<{ hour: Date; generation: bigint }[]>`SELECT hour, generation FROM "UsageDirtyHour" ORDER BY hour LIMIT ${opts.maxHours ?? 1000}`;
  let hours = 0;
  let rows = 0;
  for (const { hour, generation } of dirty) {
    const n = await rollupHour(db, hour, generation);
    if (n === null) continue; // another process has it
    hours++;
    rows += n;
  }
  return { hours, rows };
}

/**
 * Recomputes every hour from `from` through `to` (hour starts) in one transaction and one
 * statement: for backfills (the demo's seeded history), where rolling up thousands of hours one by
 * one would take minutes. The hours' marks are cleared first, so a row landing meanwhile marks its
 * hour again (its trigger waits for this transaction) and the worker's per-hour pass takes it.
 */
export async function rollupHours(db: PrismaClient, from: Date, to: Date): Promise<number> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`DELETE FROM "UsageDirtyHour" WHERE hour >= ${from} AND hour <= ${to}`;
      await tx.$executeRaw`DELETE FROM "UsageHour" WHERE hour >= ${from} AND hour <= ${to}`;
      const inserted = await tx.$executeRawUnsafe(ROLLUP_SQL, from, to);
      for (let d = dayOf(from).getTime(); d <= to.getTime(); d += 86_400_000) await markDayDirty(tx, new Date(d));
      return inserted;
    },
    { timeout: 120_000 },
  );
}
