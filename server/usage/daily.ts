import type { PrismaClient } from "../db/generated/client.ts";

const DAY = 86_400_000;

export const dayOf = (t: Date | number) => new Date(Math.floor(new Date(t).getTime() / DAY) * DAY);

/**
 * Recomputes one UTC day of UsageDay from that day's hourly roll-ups and infrastructure cost, in
 * one statement: versions folded together, and each endpoint-hour's cost split between the
 * tenants (and keys) that used it by their share of its tokens, or of its requests when it counts
 * no tokens. Endpoint-hours with cost and no calls stay unattributed: the cost pages show them as
 * idle. NUMERIC throughout.
 */
export async function rollupDay(db: PrismaClient, day: Date): Promise<number> {
  const from = dayOf(day);
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`DELETE FROM "UsageDay" WHERE day = ${from}::date`;
    return tx.$executeRaw`
      WITH h AS (
        SELECT * FROM "UsageHour" WHERE hour >= ${from}::timestamp AND hour < ${from}::timestamp + interval '1 day'
      ), tot AS (
        SELECT hour, "endpointId", sum("promptTokens" + "completionTokens") AS tok, sum(requests) AS req FROM h GROUP BY 1, 2
      )
      INSERT INTO "UsageDay" (day, "tenantId", "apiKeyId", "endpointId", requests, errors, "promptTokens", "completionTokens", charged, "infraCost", "latencySumMs", "ttftSumMs", "ttftCount", "latencyBuckets", "ttftBuckets")
      SELECT ${from}::date, h."tenantId", h."apiKeyId", h."endpointId", sum(h.requests)::int, sum(h.errors)::int, sum(h."promptTokens"), sum(h."completionTokens"), sum(h.charged),
             round(coalesce(sum(c.cost * CASE WHEN tot.tok > 0 THEN (h."promptTokens" + h."completionTokens")::numeric / tot.tok ELSE h.requests::numeric / nullif(tot.req, 0) END), 0), 12),
             sum(h."latencySumMs"), sum(h."ttftSumMs"), sum(h."ttftCount")::int, kule_sum_buckets(h."latencyBuckets"), kule_sum_buckets(h."ttftBuckets")
        FROM h JOIN tot ON tot.hour = h.hour AND tot."endpointId" = h."endpointId"
        LEFT JOIN "CostHour" c ON c.hour = h.hour AND c.subject = h."endpointId"
       GROUP BY 2, 3, 4`;
  });
}

/** Rolls up the days of the given hours (each day once). */
export async function refreshDays(db: PrismaClient, hours: Date[]): Promise<number> {
  const days = [...new Set(hours.map((h) => dayOf(h).getTime()))].sort();
  for (const d of days) await rollupDay(db, new Date(d));
  return days.length;
}
