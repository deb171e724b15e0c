import fs from "node:fs";
import { Readable } from "node:stream";
import type { ActorContext } from "../../auth/actor.ts";
import { recordAudit } from "../../audit/record.ts";
import { ConflictError } from "../../errors.ts";
import { exportFile, getExport } from "./jobs.ts";
import type { DownloadExportInput } from "./schemas.ts";
import { EXPORT_CONTENT_TYPE, type ExportFormat } from "../../db/copy-file.ts";
import { attachment } from "../../http/attachment.ts";


/** A finished export's file or its manifest, for whoever may see the export; the download is audited. */
export async function downloadExport(ctx: ActorContext, input: DownloadExportInput): Promise<Response> {
  const job = await getExport(ctx, input);
  const path = exportFile(job.id, job.format, input.part);
  if (job.state !== "done" || !fs.existsSync(path)) throw new ConflictError("The export is not finished.");
  await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "calllog.export.download", targetType: "export", targetId: job.id, after: { part: input.part } });
  const fileName = input.part === "data" ? `kule-calls-${job.id}.${job.format}` : `kule-calls-${job.id}.manifest.json`;
  const body = Readable.toWeb(fs.createReadStream(path)) as ReadableStream;
  return new Response(body, {
    headers: { "content-type": input.part === "data" ? EXPORT_CONTENT_TYPE[job.format as ExportFormat] : "application/json", "content-length": String(fs.statSync(path).size), "content-disposition": attachment(fileName) },
  });
}
