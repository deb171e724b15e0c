import type { Db } from "../db/client.ts";
import { pgPool } from "../db/pg-pool.ts";
import type { Actor } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import type { ListCallsInput } from "./schemas.ts";
import { cursorSql, scopeFilter, whereSql } from "./where.ts";
import { clientIpView } from "./client-ip.ts";
import { revealIp, type StoredIp } from "./keys/reveal.ts";

export interface CallRow {
  requestId: string;
  tenantId: string;
  tenantSlug: string | null;
  apiKeyId: string | null;
  apiKeyName: string | null;
  endpointId: string | null;
  endpointSlug: string | null;
  versionId: string | null;
  versionLabel: string | null;
  replica: string | null;
  region: string | null;
  clientIp: string | null;
  startedAt: Date;
  endedAt: Date;
  ttftMs: number | null;
  status: number;
  errorClass: string | null;
  promptTokens: number;
  completionTokens: number;
  /** Whether the call carried a `user` identifier (its keyed hash is never shown). */
  hasSubject: boolean;
  /** The call's OpenTelemetry trace id, when the gateway traced it. */
  traceId: string | null;
  /** Why its replica: `affinity` (its prompt's prefix) or `load`; its request class; the endpoints that failed before, `slug:status>…`. */
  routeReason: string | null;
  requestClass: string | null;
  fallbackChain: string | null;
  /** Special categories of personal data (KVKK Art. 6) by the endpoint's or the tenant's marking, else null. */
  specialCategory: string | null;
}

/** The page of rows with names joined on; the rows are chosen first, so names cost one page's lookups. */
export const CALL_ROW_SQL = (inner: string) => `
  SELECT c."requestId", c."tenantId", t.slug AS "tenantSlug", c."apiKeyId", k.name AS "apiKeyName",
         c."endpointId", e.slug AS "endpointSlug", c."endpointVersionId" AS "versionId", mv.version AS "versionLabel",
         c.replica, c.region, c."clientIp", c."startedAt" AT TIME ZONE 'UTC' AS "startedAt", c."endedAt" AT TIME ZONE 'UTC' AS "endedAt",
         c."ttftMs", c.status, c."errorClass", c."promptTokens", c."completionTokens", c."userHash" IS NOT NULL AS "hasSubject", c."traceId",
         c."routeReason", c."requestClass", c."fallbackChain",
         c."clientIpEnc", c."ipKeyVersion", coalesce(e."specialCategory", t."specialCategory")::text AS "specialCategory"
    FROM (${inner}) c
    LEFT JOIN "Tenant" t ON t.id = c."tenantId"
    LEFT JOIN "ApiKey" k ON k.id = c."apiKeyId"
    LEFT JOIN "Endpoint" e ON e.id = c."endpointId"
    LEFT JOIN "EndpointVersion" ev ON ev.id = c."endpointVersionId"
    LEFT JOIN "ModelVersion" mv ON mv.id = ev."modelVersionId"`;

/**
 * Newest first, keyset-paginated on (startedAt, requestId): no OFFSET, so page 1,000 costs what
 * page 1 does. A new search (no cursor) by staff is itself an audit event: KVKK practice is that
 * reads of the logs are logged.
 */
export async function listCalls(ctx: { db: Db; actor: Actor; ip: string | null }, input: ListCallsInput) {
  const { unmaskReason, ...asked } = input;
  const filter = scopeFilter(ctx.actor, asked);
  // Checked before the query: a search by IP without a reason is refused, not run and hidden.
  // A search's next pages keep its reason, recorded once with its first page.
  const view = await clientIpView(ctx, { reason: unmaskReason, record: !input.cursor, searchedIp: filter.clientIp, target: null, filter: { ...asked, cursor: undefined, limit: undefined } });
  const where = whereSql(filter) + (input.cursor ? ` AND ${cursorSql(input.cursor)}` : "");
  const inner = `SELECT * FROM "CallLog" c WHERE ${where} ORDER BY c."startedAt" DESC, c."requestId" DESC LIMIT ${input.limit + 1}`;
  const { rows } = await pgPool(ctx.db).query<CallRow & StoredIp>(`${CALL_ROW_SQL(inner)} ORDER BY c."startedAt" DESC, c."requestId" DESC`);
  const more = rows.length > input.limit;
  const items = (more ? rows.slice(0, input.limit) : rows).map((r) => view(revealIp(r)));
  const last = items[items.length - 1];
  // Every search is logged, a tenant's own included (KVKK Art. 12: access logs); its next pages are the same search.
  if (!input.cursor) {
    await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "calllog.search", targetType: "calllog", after: { filter: { ...asked, cursor: undefined, limit: undefined }, rows: items.length, more, specialRows: items.filter((r) => r.specialCategory).length } });
  }
  return { items, nextCursor: more && last ? `${last.startedAt.getTime()}_${last.requestId}` : null };
}
