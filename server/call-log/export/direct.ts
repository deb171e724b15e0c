import { PassThrough, Readable } from "node:stream";
import type { ActorContext } from "../../auth/actor.ts";
import { recordAudit } from "../../audit/record.ts";
import { pgPool } from "../../db/pg-pool.ts";
import { scopeFilter } from "../where.ts";
import type { StreamExportInput } from "./schemas.ts";
import { streamExport } from "./stream.ts";
import { EXPORT_CONTENT_TYPE } from "../../db/copy-file.ts";

/**
 * A call-log export streamed straight from COPY into the HTTP response (no file, no job): for
 * scripts and small ranges. Back-pressure reaches PostgreSQL, so memory stays flat. The ask is
 * audited before the first byte; the row count and SHA-256 (known only at the end) follow in a
 * second event, since the headers leave before the body.
 */
export async function streamExportResponse(ctx: ActorContext, input: StreamExportInput): Promise<Response> {
  const { format, locale, ...asked } = input;
  const filter = scopeFilter(ctx.actor, asked);
  const { actor, ip } = ctx;
  await recordAudit(ctx.db, { actor, ip, action: "calllog.export", targetType: "export", after: { format, filter, streamed: true } });
  const out = new PassThrough();
  void streamExport(pgPool(ctx.db), filter, format, out, { locale })
    .then((r) => recordAudit(ctx.db, { actor, ip, action: "calllog.export.streamed", targetType: "export", after: { format, rows: r.rows, sha256: r.sha256 } }))
    .catch((e) => {
      console.error("[export] streamed export failed", e);
      out.destroy(e);
    });
  return new Response(Readable.toWeb(out) as ReadableStream, {
    headers: { "content-type": EXPORT_CONTENT_TYPE[format], "content-disposition": `attachment; filename="kule-calls.${format}"` },
  });
}
