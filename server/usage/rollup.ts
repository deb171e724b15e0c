import type { PrismaClient } from "../db/generated/client.ts";
import { addSumsSql, callFactsSql, FACT_SUMS_SQL, SUM_COLUMNS } from "./call-facts.ts";
import { dayOf, markDayDirty } from "./daily.ts";

/**
 * The roll-up of every call-log hour from $1 through $2 (hour starts, inclusive): one row per
 * hour × tenant × key × endpoint × version × request class.
 */
const ROLLUP_SQL = `INSERT INTO "UsageHour" (hour, "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "requestClass", ${SUM_COLUMNS})
   SELECT date_trunc('hour', f."startedAt"), f."tenantId", f."apiKeyId", f."endpointId", f."versionId", f."requestClass", ${FACT_SUMS_SQL}
     FROM (${callFactsSql(`"startedAt" >= $1::timestamp AND "startedAt" < $2::timestamp + interval '1 hour'`)}) f
    GROUP BY 1, 2, 3, 4, 5, 6`;

/**
 * Anonymised calls of the same hours (folded per day at its first hour: server/kvkk/fold.ts), added
 * to the hour's rows: as calls of no key and no request class.
 */
const FOLDS_SQL = `INSERT INTO "UsageHour" (hour, "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "requestClass", ${SUM_COLUMNS})
   SELECT hour, "tenantId", '', "endpointId", "endpointVersionId", '', ${SUM_COLUMNS} FROM "CallLogFold" WHERE hour >= $1::timestamp AND hour <= $2::timestamp
   ON CONFLICT (hour, "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "requestClass") DO UPDATE SET ${addSumsSql(`"UsageHour"`)}`;

/** Recomputes the roll-up rows of hours $1 … $2 (whose old rows the caller deleted): calls, then folds. */
async function insertHours(tx: { $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number> }, from: Date, to: Date) {
  const n = await tx.$executeRawUnsafe(ROLLUP_SQL, from, to);
  return n + (await tx.$executeRawUnsafe(FOLDS_SQL, from, to));
}

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
    const inserted = await insertHours(tx, hour, hour);
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
      const inserted = await insertHours(tx, from, to);
      for (let d = dayOf(from).getTime(); d <= to.getTime(); d += 86_400_000) await markDayDirty(tx, new Date(d));
      return inserted;
    },
    { timeout: 120_000 },
  );
}
