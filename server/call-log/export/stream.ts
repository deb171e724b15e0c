import type pg from "pg";
import type { Writable } from "node:stream";
import { copyFileSql, streamCopyFile, type ExportFormat, type ExportLimits, type ExportResult } from "../../db/copy-file.ts";
import type { CallLogFilter } from "../schemas.ts";
import { whereSql } from "../where.ts";
import type { Locale } from "../../shared/i18n/locales.ts";
import { csvSelect, JSON_SELECT } from "./columns.ts";

export type { ExportFormat, ExportResult };

/**
 * The COPY that produces the file's body. Rows come in the seal's order (time, then request id
 * byte-wise), read along the time indexes: an outsider rebuilds each sealed hour's digest one hour at a time.
 */
function copySql(filter: CallLogFilter, format: ExportFormat, locale: Locale): string {
  const where = whereSql(filter);
  const order = `ORDER BY c."startedAt", c."requestId" COLLATE "C"`;
  return copyFileSql(`SELECT ${format === "csv" ? csvSelect(locale) : JSON_SELECT} FROM "CallLog" c WHERE ${where} ${order}`, format);
}

/**
 * Streams the rows of a filter into `sink` (streamCopyFile: flat memory, BOM and CRLF for CSV, the
 * SHA-256 of exactly the bytes written, stopped past `limits`); `onRows` reports progress as rows pass.
 */
export function streamExport(pool: pg.Pool, filter: CallLogFilter, format: ExportFormat, sink: Writable, opts: { onRows?: (rows: number) => void; locale?: Locale; limits?: Partial<ExportLimits> } = {}): Promise<ExportResult> {
  return streamCopyFile(pool, copySql(filter, format, opts.locale ?? "en"), format, sink, { onRows: opts.onRows, limits: opts.limits });
}

/** The rows a filter matches, counted no further than `atMost + 1`: enough to refuse an export past its limit without counting the whole log. */
export async function countRows(pool: pg.Pool, filter: CallLogFilter, atMost: number): Promise<number> {
  const r = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM (SELECT 1 FROM "CallLog" c WHERE ${whereSql(filter)} LIMIT ${Math.floor(atMost) + 1}) x`);
  return Number(r.rows[0]!.n);
}
