import { pgPool } from "../db/pg-pool.ts";
import type { ActorContext } from "../auth/actor.ts";
import { searchTenant, tenantWhere } from "../auth/scope.ts";
import { recordAudit } from "../audit/record.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import { hashSubject, subjectHashes as hashesOf } from "../call-log/subject-hash.ts";
import { whereSql } from "../call-log/where.ts";
import { startExport } from "../call-log/export/jobs.ts";
import { ipIndexesOf } from "../call-log/keys/rings.ts";
import type { CallLogFilter } from "../call-log/schemas.ts";
import type { SubjectExportInput, SubjectFindInput } from "./schemas.ts";

/** The rows a request covers: its tenant's rows of the person, by `user` hash or client-IP index (server/call-log/where.ts). */
export const requestFilter = (req: { subjectHash: string; subjectHashes: string[]; ipIndexes: string[]; tenantId: string | null }): CallLogFilter => ({
  tenantId: req.tenantId,
  // Requests before key versions hold the one hash; a request by IP only holds no user hash at all.
  subjectHashes: req.subjectHashes.length ? req.subjectHashes : req.ipIndexes.length ? [] : [req.subjectHash],
  subjectIpIndexes: req.ipIndexes,
});

/**
 * Finds a data subject's call-log rows by the `user` identifier the tenant passed in its calls,
 * or by a client IP the person used (or both), keyed as the gateway keys them (neither is stored
 * or logged: only their keyed hashes), in one tenant's call log, and opens a request record. Rows
 * are counted per month, across every partition.
 */
export async function findSubject(ctx: ActorContext, input: SubjectFindInput) {
  // A tenant's request covers its own rows only; staff name the tenant (the controller) asked:
  // one search never links a person's calls across tenants (the processor acts per controller).
  const tenantId = searchTenant(ctx.actor, input.tenantId);
  if (!tenantId) throw new InvalidInputError("tenantId", "the tenant the request is for: one person is never searched across tenants");
  const ipIndexes = input.ip ? ipIndexesOf(input.ip) : [];
  const subjectHashes = input.user ? hashesOf(input.user) : [];
  const subjectHash = input.user ? hashSubject(input.user) : ipIndexes[0]!;
  const where = whereSql(requestFilter({ subjectHash, subjectHashes, ipIndexes, tenantId }), "c");
  const { rows } = await pgPool(ctx.db).query<{ tenantId: string; tenantSlug: string | null; month: Date; rows: string }>(
    `SELECT c."tenantId", t.slug AS "tenantSlug", date_trunc('month', c."startedAt") AT TIME ZONE 'UTC' AS month, count(*) AS rows
       FROM "CallLog" c LEFT JOIN "Tenant" t ON t.id = c."tenantId" WHERE ${where} GROUP BY 1, 2, 3 ORDER BY 3, 2`,
  );
  const byTenantMonth = rows.map((r) => ({ tenantId: r.tenantId, tenantSlug: r.tenantSlug, month: r.month, rows: Number(r.rows) }));
  const rowsFound = byTenantMonth.reduce((n, r) => n + r.rows, 0);
  const request = await ctx.db.$transaction(async (tx) => {
    const req = await tx.dataSubjectRequest.create({ data: { subjectHash, subjectHashes, ipIndexes, tenantId, reference: input.reference ?? null, rowsFound, requestedById: ctx.actor.userId, requestedByEmail: ctx.actor.email } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.subject.find", targetType: "subject_request", targetId: req.id, after: { tenantId, reference: input.reference ?? null, rowsFound, by: [input.user ? "user" : null, input.ip ? "client_ip" : null].filter(Boolean) } });
    return req;
  });
  return { requestId: request.id, rowsFound, byTenantMonth };
}

export async function loadRequest(ctx: ActorContext, id: string) {
  const req = await ctx.db.dataSubjectRequest.findFirst({ where: { id, ...tenantWhere(ctx.actor) } });
  if (!req) throw new NotFoundError("Data-subject request");
  return req;
}

/** Exports the subject's rows (the request's scope) as a background export job. */
export async function exportSubject(ctx: ActorContext, input: SubjectExportInput) {
  const req = await loadRequest(ctx, input.requestId);
  const job = await startExport(ctx, { format: input.format, filter: requestFilter(req) });
  await ctx.db.dataSubjectRequest.update({ where: { id: req.id }, data: { exportJobId: job.id } });
  return job;
}
