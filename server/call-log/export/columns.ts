import type { Locale } from "../../shared/i18n/locales.ts";
import { MESSAGES } from "../../shared/i18n/messages.ts";
import { csvTextSql } from "../../shared/csv.ts";

/**
 * The exported columns, in order. Times are ISO 8601 UTC with milliseconds; with the other
 * values as stored, an outsider can rebuild each row's sealed line (scripts/verify-export.mjs).
 */
export const EXPORT_COLUMNS = ["requestId", "tenantId", "apiKeyId", "endpointId", "versionId", "replica", "region", "clientIp", "startedAt", "endedAt", "ttftMs", "status", "errorClass", "promptTokens", "completionTokens", "userHash"] as const;

const iso = (col: string) => `to_char(c."${col}", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const EXPR: Record<(typeof EXPORT_COLUMNS)[number], string> = {
  requestId: `c."requestId"`,
  tenantId: `c."tenantId"`,
  apiKeyId: `c."apiKeyId"`,
  endpointId: `c."endpointId"`,
  versionId: `c."endpointVersionId"`,
  replica: `c.replica`,
  region: `c.region`,
  clientIp: `c."clientIp"`,
  startedAt: iso("startedAt"),
  endedAt: iso("endedAt"),
  ttftMs: `c."ttftMs"`,
  status: `c.status`,
  errorClass: `c."errorClass"`,
  promptTokens: `c."promptTokens"`,
  completionTokens: `c."completionTokens"`,
  userHash: `c."userHash"`,
};

/** Columns that are not text an outsider wrote: numbers stay numbers, times are to_char's digits. */
const NOT_TEXT = new Set<string>(["startedAt", "endedAt", "ttftMs", "status", "promptTokens", "completionTokens"]);

/**
 * The CSV's columns, headed in the reader's language (English heads are the field names). Text
 * cells (request ids a client may send, replica, region, error class…) are never formulas in a
 * spreadsheet (csvTextSql); the verifier drops the one quote that adds.
 */
export function csvSelect(locale: Locale): string {
  const head = MESSAGES[locale].exportFiles.callLog;
  return EXPORT_COLUMNS.map((k) => `${NOT_TEXT.has(k) ? EXPR[k] : csvTextSql(EXPR[k])} AS "${head[k].replace(/"/g, '""')}"`).join(", ");
}
export const JSON_SELECT = `json_build_object(${EXPORT_COLUMNS.map((k) => `'${k}', ${EXPR[k]}`).join(", ")})::text`;
