import { bucketsSql } from "./histogram.ts";

// What a call is charged and the price in force at its start are SQL functions of the database
// (kule_call_charge, kule_price_at: migration limits_budgets_retire), shared with the live month
// spend that enforces budgets, so the two can never disagree.
const CHARGE_SQL = `kule_call_charge(c.status, c."endpointId", c."promptTokens", c."completionTokens", pp."inputPer1M", pp."outputPer1M", pp."perRequest")`;

const LATENCY_MS = `(EXTRACT(EPOCH FROM (c."endedAt" - c."startedAt")) * 1000)`;

/**
 * Each call's facts the roll-ups sum, one row per call-log row matching `where` (SQL over the
 * call-log row's own columns, unqualified or as "CallLog"): its latency and charge computed once.
 * The hourly roll-up and the anonymisation fold both read calls through here.
 */
export const callFactsSql = (where: string) =>
  `SELECT c."startedAt", c."tenantId", coalesce(c."apiKeyId", '') AS "apiKeyId", coalesce(c."endpointId", '') AS "endpointId", coalesce(c."endpointVersionId", '') AS "versionId", coalesce(c."requestClass", '') AS "requestClass",
          c.status, c."promptTokens", c."completionTokens", c."ttftMs", ${LATENCY_MS} AS lat, ${CHARGE_SQL} AS charge, coalesce(pl.currency, 'TRY') AS currency
     FROM (SELECT * FROM "CallLog" WHERE ${where}) c
     JOIN "Tenant" t ON t.id = c."tenantId"
     LEFT JOIN "PricePlan" pl ON pl.id = t."pricePlanId"
     LEFT JOIN LATERAL kule_price_at(t."pricePlanId", c."endpointId", c."startedAt") pp ON true`;

/** The sums of a group of call facts `f`, in the roll-ups' column order (requests … ttftBuckets). */
export const FACT_SUMS_SQL = `count(*)::int, count(*) FILTER (WHERE f.status >= 500)::int,
          sum(f."promptTokens"), sum(f."completionTokens"), sum(f.charge), min(f.currency),
          round(sum(f.lat))::bigint, coalesce(sum(f."ttftMs"), 0)::bigint, count(f."ttftMs")::int,
          ${bucketsSql("f.lat")}, ${bucketsSql(`f."ttftMs"`)}`;

/** The roll-ups' summed columns, named as UsageHour and CallLogFold name them. */
export const SUM_COLUMNS = `requests, errors, "promptTokens", "completionTokens", charged, currency, "latencySumMs", "ttftSumMs", "ttftCount", "latencyBuckets", "ttftBuckets"`;

/** ON CONFLICT … DO UPDATE of the summed columns of `table`: adds the new sums to the old. */
export const addSumsSql = (table: string) =>
  `requests = ${table}.requests + EXCLUDED.requests, errors = ${table}.errors + EXCLUDED.errors,
   "promptTokens" = ${table}."promptTokens" + EXCLUDED."promptTokens", "completionTokens" = ${table}."completionTokens" + EXCLUDED."completionTokens",
   charged = ${table}.charged + EXCLUDED.charged, "latencySumMs" = ${table}."latencySumMs" + EXCLUDED."latencySumMs",
   "ttftSumMs" = ${table}."ttftSumMs" + EXCLUDED."ttftSumMs", "ttftCount" = ${table}."ttftCount" + EXCLUDED."ttftCount",
   "latencyBuckets" = kule_add_int_arrays(${table}."latencyBuckets", EXCLUDED."latencyBuckets"), "ttftBuckets" = kule_add_int_arrays(${table}."ttftBuckets", EXCLUDED."ttftBuckets")`;
