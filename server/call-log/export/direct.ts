import { PassThrough, Readable } from "node:stream";
import type { ActorContext } from "../../auth/actor.ts";
import { recordAudit } from "../../audit/record.ts";
import { pgPool } from "../../db/pg-pool.ts";
import { scopeFilter } from "../where.ts";
import type { StreamExportInput } from "./schemas.ts";
import { countRows, streamExport } from "./stream.ts";
import { TooLargeError } from "../../errors.ts";
import { EXPORT_CONTENT_TYPE, EXPORT_LIMITS } from "../../db/copy-file.ts";
import { attachment } from "../../http/attachment.ts";

/**
 * The most rows a streamed export holds: its response cannot say "too many" once the body has
 * begun, so a larger ask is refused before, and goes to an export job (a file, up to EXPORT_LIMITS).
 */
export const STREAMED_MAX_ROWS = 1_000_000;

/**
 * A call-log export streamed straight from COPY into the HTTP response (no file, no job): for
 * scripts and small ranges. Back-pressure reaches PostgreSQL, so memory stays flat. The ask is
 * audited before the first byte; the row count and SHA-256 (known only at the end) follow in a
 * second event, since the headers leave before the body.
 */
export async function streamExportResponse(ctx: ActorContext, input: StreamExportInput, maxRows = STREAMED_MAX_ROWS): Promise<Response> {
  const { format, locale, ...asked } = input;
  const filter = scopeFilter(ctx.actor, asked);
  const { actor, ip } = ctx;
  const pool = pgPool(ctx.db);
  if ((await countRows(pool, filter, maxRows)) > maxRows) {
    throw new TooLargeError(`More than ${maxRows.toLocaleString("en")} rows match, the most a streamed export holds: use Export CSV on the call log page (a file, up to ${EXPORT_LIMITS.maxRows.toLocaleString("en")} rows), or narrow the time range or the filter.`);
  }
  await recordAudit(ctx.db, { actor, ip, action: "calllog.export", targetType: "export", after: { format, filter, streamed: true } });
  const out = new PassThrough();
  // Rows the log gains after the count still stop at the limit.
  void streamExport(pool, filter, format, out, { locale, limits: { maxRows } })
    .then((r) => recordAudit(ctx.db, { actor, ip, action: "calllog.export.streamed", targetType: "export", after: { format, rows: r.rows, sha256: r.sha256 } }))
    .catch((e) => {
      console.error("[export] streamed export failed", e);
      out.destroy(e);
    });
  return new Response(Readable.toWeb(out) as ReadableStream, {
    headers: { "content-type": EXPORT_CONTENT_TYPE[format], "content-disposition": attachment(`kule-calls.${format}`) },
  });
}
