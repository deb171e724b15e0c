import { InvalidInputError } from "../errors.ts";
import pg from "pg";
import type { CallLogFilter } from "./schemas.ts";
import type { Actor } from "../auth/actor.ts";
import { searchTenant } from "../auth/scope.ts";
import { ipIndexesOf } from "./keys/rings.ts";

const escapeLiteral = (s: string) => pg.escapeLiteral(s);
const lit = (v: string | number) => (typeof v === "number" ? String(v) : escapeLiteral(v));
const ts = (d: Date) => `${escapeLiteral(d.toISOString())}::timestamptz AT TIME ZONE 'UTC'`;

/** A filter confined to what the actor may see (server/auth/scope.ts): a tenant's own rows only. */
export function scopeFilter(actor: Actor, filter: CallLogFilter): CallLogFilter {
  const tenantId = searchTenant(actor, filter.tenantId);
  // A data subject is looked for in one tenant's (controller's) rows: never linked across tenants.
  if ((filter.subjectHash || filter.subjectHashes?.length || filter.subjectIpIndexes?.length) && !tenantId) throw new InvalidInputError("tenantId", "the tenant to look in: one person is never searched across tenants");
  return { ...filter, tenantId };
}

/**
 * The WHERE clause of a call-log filter as SQL with escaped literals, so the same text serves a
 * parameterless COPY (exports) and the explorer's query. Values passed their zod schema first.
 */
export function whereSql(f: CallLogFilter, alias = "c"): string {
  const c = (col: string) => `${alias}."${col}"`;
  const parts: string[] = ["TRUE"];
  if (f.tenantId) parts.push(`${c("tenantId")} = ${lit(f.tenantId)}`);
  if (f.apiKeyId) parts.push(`${c("apiKeyId")} = ${lit(f.apiKeyId)}`);
  if (f.endpointId) parts.push(`${c("endpointId")} = ${lit(f.endpointId)}`);
  if (f.versionId) parts.push(`${c("endpointVersionId")} = ${lit(f.versionId)}`);
  if (f.status != null) parts.push(`${c("status")} = ${lit(f.status)}`);
  // Rows written before encryption hold the IP itself; later ones its index under their key version, so every version's is asked.
  if (f.clientIp) parts.push(`(${c("clientIp")} = ${lit(f.clientIp)} OR ${c("clientIpHash")} IN (${ipIndexesOf(f.clientIp).map(lit).join(", ")}))`);
  if (f.requestId) parts.push(`${c("requestId")} = ${lit(f.requestId)}`);
  if (f.subjectHash) parts.push(`${c("userHash")} = ${lit(f.subjectHash)}`);
  if (f.subjectHashes || f.subjectIpIndexes) {
    // A data subject's rows: by the `user` identifier's hash, or by the client IP's index.
    const person = [
      ...(f.subjectHashes?.length ? [`${c("userHash")} IN (${f.subjectHashes.map(lit).join(", ")})`] : []),
      ...(f.subjectIpIndexes?.length ? [`${c("clientIpHash")} IN (${f.subjectIpIndexes.map(lit).join(", ")})`] : []),
    ];
    parts.push(person.length ? `(${person.join(" OR ")})` : "FALSE");
  }
  if (f.from) parts.push(`${c("startedAt")} >= ${ts(f.from)}`);
  if (f.to) parts.push(`${c("startedAt")} < ${ts(f.to)}`);
  return parts.join(" AND ");
}

export function cursorSql(cursor: string, alias = "c"): string {
  const cut = cursor.indexOf("_");
  const ms = Number(cursor.slice(0, cut));
  return `(${alias}."startedAt", ${alias}."requestId") < (${ts(new Date(ms))}, ${lit(cursor.slice(cut + 1))})`;
}
