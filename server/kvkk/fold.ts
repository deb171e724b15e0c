import type pg from "pg";
import { addSumsSql, callFactsSql, FACT_SUMS_SQL, SUM_COLUMNS } from "../usage/call-facts.ts";

/**
 * A day's cell (tenant × endpoint × version) of fewer calls than this loses its endpoint and
 * version and joins the tenant's day: a cell of one call would repeat that call's token counts,
 * which the tenant's own request log could match (k-anonymity, k = 5).
 */
export const FOLD_MIN_CALLS = 5;

/** What a record says anonymisation did, so the record itself shows it was not pseudonymisation. */
export const ANONYMISATION_TECHNIQUE = [
  "rows folded into per-day totals per tenant, endpoint and version; no row of one call is left",
  `a day's cell of fewer than ${FOLD_MIN_CALLS} calls keeps neither endpoint nor version (joins the tenant's day)`,
  "request id, trace id, times, client IP, API key, subject hash, replica, region, route, request class and fallback chain are not kept",
];

/**
 * Anonymisation (the 2017 Regulation, Art. 10: data that can no longer be linked to a person, even
 * when matched with other data). The rows matching `where` are summed into "CallLogFold" (added to
 * an earlier fold of the same cell); the caller then deletes them. What stays — calls, errors,
 * tokens, charges and latency histograms per tenant, endpoint, version and day — is what the cost
 * pages need and matches no single call of the tenant's own log, its trace spans or its request ids.
 * The hours the rows lay in are marked for the roll-up, which then reads the fold instead.
 */
export async function foldRows(client: pg.PoolClient, where: string, hours: number[]): Promise<void> {
  await client.query(
    `WITH f AS (${callFactsSql(where)}),
          cells AS (SELECT date_trunc('day', "startedAt") AS day, "tenantId", "endpointId", "versionId", count(*) >= ${FOLD_MIN_CALLS} AS kept FROM f GROUP BY 1, 2, 3, 4)
     INSERT INTO "CallLogFold" (hour, "tenantId", "endpointId", "endpointVersionId", ${SUM_COLUMNS})
     SELECT k.day, f."tenantId", CASE WHEN k.kept THEN f."endpointId" ELSE '' END, CASE WHEN k.kept THEN f."versionId" ELSE '' END, ${FACT_SUMS_SQL}
       FROM f JOIN cells k ON k.day = date_trunc('day', f."startedAt") AND k."tenantId" = f."tenantId" AND k."endpointId" = f."endpointId" AND k."versionId" = f."versionId"
      GROUP BY 1, 2, 3, 4
     ON CONFLICT (hour, "tenantId", "endpointId", "endpointVersionId") DO UPDATE SET ${addSumsSql(`"CallLogFold"`)}`,
  );
  // Every hour the rows left, and each day's first hour the fold now lands in, is recomputed.
  const days = hours.map((h) => h - (h % 86_400_000));
  const marks = [...new Set([...hours, ...days])].map((h) => new Date(h));
  if (marks.length)
    await client.query(
      `INSERT INTO "UsageDirtyHour" (hour) SELECT unnest($1::timestamptz[]) AT TIME ZONE 'UTC'
       ON CONFLICT (hour) DO UPDATE SET "markedAt" = now(), generation = "UsageDirtyHour".generation + 1`,
      [marks],
    );
}
