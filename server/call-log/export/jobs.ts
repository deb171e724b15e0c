import fs from "node:fs";
import path from "node:path";
import type { Db } from "../../db/client.ts";
import { pgPool } from "../../db/pg-pool.ts";
import { env } from "../../env.ts";
import type { ActorContext } from "../../auth/actor.ts";
import { ownTenant, tenantWhere } from "../../auth/scope.ts";
import { recordAudit } from "../../audit/record.ts";
import { NotFoundError } from "../../errors.ts";
import type { ExportIdInput, StartExportInput } from "./schemas.ts";
import { scopeFilter } from "../where.ts";
import { countRows, streamExport, type ExportFormat } from "./stream.ts";
import { EXPORT_LIMITS, tooManyRows, type ExportLimits } from "../../db/copy-file.ts";
import { buildManifest, sealSegmentsFor } from "./manifest.ts";
import type { CallLogFilter } from "../schemas.ts";
import { isLocale } from "../../shared/i18n/locales.ts";

export function exportDir(): string {
  return path.resolve(env.KULE_DATA_DIR, "exports");
}

export function exportFile(id: string, format: string, part: "data" | "manifest") {
  return path.join(exportDir(), part === "data" ? `${id}.${format}` : `${id}.manifest.json`);
}

/**
 * Queues an export of a filter (a tenant's is narrowed to its own rows) and starts it in the
 * background; the request and its filter are an audit event in the same transaction.
 */
export async function startExport(ctx: ActorContext, input: StartExportInput, opts: { run?: boolean } = {}) {
  const filter = scopeFilter(ctx.actor, input.filter);
  const tenantScope = ownTenant(ctx.actor);
  const job = await ctx.db.$transaction(async (tx) => {
    const j = await tx.exportJob.create({
      data: { format: input.format, locale: input.locale ?? "en", filter: JSON.parse(JSON.stringify(filter)), tenantScope, requestedById: ctx.actor.userId, requestedByEmail: ctx.actor.email },
    });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "calllog.export", targetType: "export", targetId: j.id, after: { format: input.format, filter, tenantScope } });
    return j;
  });
  if (opts.run !== false) void runExport(ctx.db, job.id).catch((e) => console.error("[export]", job.id, e));
  return job;
}

/**
 * Runs a queued export: counts, streams to a file with progress, then checksum and manifest. One
 * past EXPORT_LIMITS (rows, time) fails with the reason and leaves no file.
 */
export async function runExport(db: Db, id: string, limits: ExportLimits = EXPORT_LIMITS): Promise<void> {
  const job = await db.exportJob.update({ where: { id }, data: { state: "running" } });
  const filter = reviveFilter(job.filter as Record<string, unknown>);
  const pool = pgPool(db);
  const file = exportFile(id, job.format, "data");
  const partial = `${file}.part`;
  try {
    const total = await countRows(pool, filter, limits.maxRows);
    if (total > limits.maxRows) throw tooManyRows(limits.maxRows);
    await db.exportJob.update({ where: { id }, data: { rowsTotal: total } });
    fs.mkdirSync(exportDir(), { recursive: true });
    let progress = Promise.resolve();
    const result = await streamExport(pool, filter, job.format as ExportFormat, fs.createWriteStream(partial), {
      limits,
      locale: isLocale(job.locale) ? job.locale : "en",
      onRows: (rows) => {
        // Progress writes run one after another, never two at once.
        progress = progress.then(() => db.exportJob.update({ where: { id }, data: { rowsDone: rows } }).then(() => {}));
      },
    });
    await progress;
    fs.renameSync(partial, file);
    // The seal covers every tenant's rows: a tenant's manifest carries none of it (not even the
    // hourly row counts, which would tell it the other tenants' combined volume).
    const seal = job.tenantScope ? null : await sealSegmentsFor(pool, filter.from ?? null, filter.to ?? null);
    const manifest = buildManifest({ id, format: job.format, filter, tenantScope: job.tenantScope, rows: result.rows, bytes: result.bytes, sha256: result.sha256, requestedBy: { id: job.requestedById, email: job.requestedByEmail }, requestedAt: job.createdAt, seal });
    fs.writeFileSync(exportFile(id, job.format, "manifest"), JSON.stringify(manifest, null, 2));
    await db.exportJob.update({ where: { id }, data: { state: "done", rowsDone: result.rows, bytes: BigInt(result.bytes), sha256: result.sha256, manifest: JSON.parse(JSON.stringify(manifest)), finishedAt: new Date() } });
  } catch (e) {
    fs.rmSync(partial, { force: true });
    await db.exportJob.update({ where: { id }, data: { state: "failed", error: e instanceof Error ? e.message : String(e), finishedAt: new Date() } });
    throw e;
  }
}

function reviveFilter(f: Record<string, unknown>): CallLogFilter {
  return { ...f, from: f.from ? new Date(f.from as string) : null, to: f.to ? new Date(f.to as string) : null } as CallLogFilter;
}

/** Staff see every export; a tenant only its own tenant's. Another's is NOT_FOUND. */
export async function getExport(ctx: Pick<ActorContext, "db" | "actor">, { id }: ExportIdInput) {
  const job = await ctx.db.exportJob.findFirst({ where: { id, ...tenantWhere(ctx.actor, "tenantScope") } });
  if (!job) throw new NotFoundError("Export");
  return { ...job, bytes: Number(job.bytes) };
}

export async function listExports(ctx: ActorContext) {
  const jobs = await ctx.db.exportJob.findMany({
    where: tenantWhere(ctx.actor, "tenantScope"),
    orderBy: { createdAt: "desc" },
    take: 20,
    omit: { manifest: true },
  });
  return jobs.map((j) => ({ ...j, bytes: Number(j.bytes) }));
}

/** Marks exports a restarted app left running as failed: their files are incomplete. */
export async function failAbandonedExports(db: Db) {
  await db.exportJob.updateMany({ where: { state: { in: ["queued", "running"] } }, data: { state: "failed", error: "The app restarted during the export; start it again.", finishedAt: new Date() } });
}
