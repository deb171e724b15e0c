import fs from "node:fs";
import type { Context } from "../../trpc/context.ts";
import { can } from "../../auth/permissions.ts";
import { recordAudit } from "../../audit/record.ts";
import { NotFoundError } from "../../errors.ts";
import { exportFile, getExport } from "./jobs.ts";

const TYPES: Record<string, string> = { csv: "text/csv; charset=utf-8", jsonl: "application/x-ndjson; charset=utf-8" };

/** Checks who asks, finds the file, and records the download; the route only streams it. */
export async function downloadExport(ctx: Context, id: string, part: "data" | "manifest") {
  if (!ctx.actor) return { status: 401, message: "Sign in first." };
  if (!can(ctx.actor.role, "calllog:export")) return { status: 403, message: "Your role may not export call logs." };
  if (!/^\w{1,40}$/.test(id)) return { status: 400, message: "id: an export id" };
  try {
    const job = await getExport({ db: ctx.db, actor: ctx.actor }, id);
    const path = exportFile(job.id, job.format, part);
    if (job.state !== "done" || !fs.existsSync(path)) return { status: 409, message: "The export is not finished." };
    await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "calllog.export.download", targetType: "export", targetId: job.id, after: { part } });
    const fileName = part === "data" ? `kule-calls-${job.id}.${job.format}` : `kule-calls-${job.id}.manifest.json`;
    return { path, size: fs.statSync(path).size, fileName, contentType: part === "data" ? TYPES[job.format]! : "application/json" };
  } catch (e) {
    if (e instanceof NotFoundError) return { status: 404, message: e.message };
    throw e;
  }
}
