import { PassThrough, Readable } from "node:stream";
import { z } from "zod";
import type { Context } from "../../trpc/context.ts";
import { can } from "../../auth/permissions.ts";
import { recordAudit } from "../../audit/record.ts";
import { pgPool } from "../../db/pg-pool.ts";
import { callLogFilter } from "../schemas.ts";
import { scopeFilter } from "../where.ts";
import { exportFormat } from "./schemas.ts";
import { streamExport } from "./stream.ts";

const query = callLogFilter.extend({ format: exportFormat.default("csv") });

/**
 * A call-log export streamed straight from COPY into the HTTP response (no file, no job): for
 * scripts and small ranges. Back-pressure reaches PostgreSQL, so memory stays flat. The ask is
 * audited before the first byte; the row count and SHA-256 (known only at the end) follow in a
 * second event, since the headers leave before the body.
 */
export async function streamExportResponse(ctx: Context, params: URLSearchParams): Promise<Response> {
  if (!ctx.actor) return new Response("Sign in first.", { status: 401 });
  if (!can(ctx.actor.role, "calllog:export")) return new Response("Your role may not export call logs.", { status: 403 });
  const parsed = query.safeParse(Object.fromEntries(params));
  if (!parsed.success) return Response.json({ fieldErrors: z.flattenError(parsed.error).fieldErrors }, { status: 400 });
  const { format, ...asked } = parsed.data;
  const filter = scopeFilter(ctx.actor, asked);
  const actor = ctx.actor;
  await recordAudit(ctx.db, { actor, ip: ctx.ip, action: "calllog.export", targetType: "export", after: { format, filter, streamed: true } });
  const out = new PassThrough();
  void streamExport(pgPool(ctx.db), filter, format, out)
    .then((r) => recordAudit(ctx.db, { actor, ip: ctx.ip, action: "calllog.export.streamed", targetType: "export", after: { format, rows: r.rows, sha256: r.sha256 } }))
    .catch((e) => {
      console.error("[export] streamed export failed", e);
      out.destroy(e);
    });
  return new Response(Readable.toWeb(out) as ReadableStream, {
    headers: { "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="kule-calls.${format}"` },
  });
}
