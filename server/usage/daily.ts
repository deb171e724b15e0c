import type { PrismaClient } from "../db/generated/client.ts";

const DAY = 86_400_000;

export const dayOf = (t: Date | number) => new Date(Math.floor(new Date(t).getTime() / DAY) * DAY);

/** Marks the day of `t` for the daily roll-up; run it in the transaction that changes that day's inputs. */
export const markDayDirty = (db: Pick<PrismaClient, "$executeRaw">, t: Date) =>
  db.$executeRaw`INSERT INTO "UsageDirtyDay" (day) VALUES (${dayOf(t)}::date)
    ON CONFLICT (day) DO UPDATE SET "markedAt" = now(), generation = "UsageDirtyDay".generation + 1`;

/**
 * Recomputes one UTC day of UsageDay from that day's hourly roll-ups and infrastructure cost, in
 * one statement: versions folded together (request classes kept apart), and each endpoint-hour's cost split between the
 * tenants (and keys) that used it by their share of its tokens, or of its requests when it counts
 * no tokens — its device hours, energy and storage the same way. Endpoint-hours with cost and no calls stay unattributed: the cost pages show them as
 * idle. NUMERIC throughout.
 */
export async function rollupDay(db: PrismaClient, day: Date, generation?: bigint): Promise<number | null> {
  const from = dayOf(day);
  return db.$transaction(async (tx) => {
    if (generation !== undefined) {
      const [lock] = await tx.$queryRaw<{ mine: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtext('kule_usage_day'), (${from}::date - date '2000-01-01')) AS mine`;
      if (!lock?.mine) return null;
    }
    await tx.$executeRaw`DELETE FROM "UsageDay" WHERE day = ${from}::date`;
    const inserted = await tx.$executeRaw`
      WITH h AS (
        SELECT * FROM "UsageHour" WHERE hour >= ${from}::timestamp AND hour < ${from}::timestamp + interval '1 day'
      ), tot AS (
        SELECT hour, "endpointId", sum("promptTokens" + "completionTokens") AS tok, sum(requests) AS req FROM h GROUP BY 1, 2
      )
      INSERT INTO "UsageDay" (day, "tenantId", "apiKeyId", "endpointId", "requestClass", requests, errors, "promptTokens", "completionTokens", charged, "infraCost", "gpuHours", "energyCost", "storageCost", "latencySumMs", "ttftSumMs", "ttftCount", "latencyBuckets", "ttftBuckets")
      SELECT ${from}::date, h."tenantId", h."apiKeyId", h."endpointId", h."requestClass", sum(h.requests)::int, sum(h.errors)::int, sum(h."promptTokens"), sum(h."completionTokens"), sum(h.charged),
             round(coalesce(sum(c.cost * sh.share), 0), 12), round(coalesce(sum(c."deviceHours" * sh.share), 0), 12),
             round(coalesce(sum(c."energyCost" * sh.share), 0), 12), round(coalesce(sum(c."storageCost" * sh.share), 0), 12),
             sum(h."latencySumMs"), sum(h."ttftSumMs"), sum(h."ttftCount")::int, kule_sum_buckets(h."latencyBuckets"), kule_sum_buckets(h."ttftBuckets")
        FROM h JOIN tot ON tot.hour = h.hour AND tot."endpointId" = h."endpointId"
        LEFT JOIN "CostHour" c ON c.hour = h.hour AND c.subject = h."endpointId"
       CROSS JOIN LATERAL (SELECT CASE WHEN tot.tok > 0 THEN (h."promptTokens" + h."completionTokens")::numeric / tot.tok ELSE h.requests::numeric / nullif(tot.req, 0) END AS share) sh
       GROUP BY 2, 3, 4, 5`;
    if (generation !== undefined) await tx.$executeRaw`DELETE FROM "UsageDirtyDay" WHERE day = ${from}::date AND generation = ${generation}`;
    return inserted;
  });
}

/**
 * Recomputes every day marked since the last pass: the hourly roll-up and the hourly cost mark
 * a day in the transaction that changes it, and the day is unmarked in the transaction that
 * recomputes it, at the generation it read — so a day is never left stale by a failed or
 * interrupted pass.
 */
export async function refreshDirtyDays(db: PrismaClient): Promise<number> {
  const dirty = await db.$queryRaw<{ day: Date; generation: bigint }[]>`SELECT day, generation FROM "UsageDirtyDay" ORDER BY day`;
  let days = 0;
  for (const { day, generation } of dirty) if ((await rollupDay(db, day, generation)) !== null) days++;
  return days;
}
