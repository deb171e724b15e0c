import { pgPool } from "../db/pg-pool.ts";
import type { ActorContext } from "../auth/actor.ts";
import { searchTenant, tenantWhere } from "../auth/scope.ts";
import { recordAudit } from "../audit/record.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import { hashSubject, subjectHashes as hashesOf } from "../call-log/subject-hash.ts";
import { whereSql } from "../call-log/where.ts";
import { startExport } from "../call-log/export/jobs.ts";
import { removeRows } from "./remove-rows.ts";
import type { SubjectDestroyInput, SubjectExportInput, SubjectFindInput } from "./schemas.ts";

/**
 * Finds a data subject's call-log rows by the `user` identifier the tenant passed in its calls,
 * hashed with the same key as the gateway (the identifier itself is neither stored nor logged),
 * in one tenant's call log, and opens a request record. Rows are counted per month, across every partition.
 */
export async function findSubject(ctx: ActorContext, input: SubjectFindInput) {
  const subjectHash = hashSubject(input.user);
  const subjectHashes = hashesOf(input.user);
  // A tenant's request covers its own rows only; staff name the tenant (the controller) asked:
  // one search never links a person's calls across tenants (the processor acts per controller).
  const tenantId = searchTenant(ctx.actor, input.tenantId);
  if (!tenantId) throw new InvalidInputError("tenantId", "the tenant the request is for: one person is never searched across tenants");
  const where = whereSql({ subjectHashes, tenantId }, "c");
  const { rows } = await pgPool(ctx.db).query<{ tenantId: string; tenantSlug: string | null; month: Date; rows: string }>(
    `SELECT c."tenantId", t.slug AS "tenantSlug", date_trunc('month', c."startedAt") AT TIME ZONE 'UTC' AS month, count(*) AS rows
       FROM "CallLog" c LEFT JOIN "Tenant" t ON t.id = c."tenantId" WHERE ${where} GROUP BY 1, 2, 3 ORDER BY 3, 2`,
  );
  const byTenantMonth = rows.map((r) => ({ tenantId: r.tenantId, tenantSlug: r.tenantSlug, month: r.month, rows: Number(r.rows) }));
  const rowsFound = byTenantMonth.reduce((n, r) => n + r.rows, 0);
  const request = await ctx.db.$transaction(async (tx) => {
    const req = await tx.dataSubjectRequest.create({ data: { subjectHash, subjectHashes, tenantId, reference: input.reference ?? null, rowsFound, requestedById: ctx.actor.userId, requestedByEmail: ctx.actor.email } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.subject.find", targetType: "subject_request", targetId: req.id, after: { tenantId, reference: input.reference ?? null, rowsFound } });
    return req;
  });
  return { requestId: request.id, rowsFound, byTenantMonth };
}

/** Every key version's hash of the request's person (requests before versions hold the one). */
const requestHashes = (req: { subjectHash: string; subjectHashes: string[] }) => (req.subjectHashes.length ? req.subjectHashes : [req.subjectHash]);

async function loadRequest(ctx: ActorContext, id: string) {
  const req = await ctx.db.dataSubjectRequest.findFirst({ where: { id, ...tenantWhere(ctx.actor) } });
  if (!req) throw new NotFoundError("Data-subject request");
  return req;
}

/** Exports the subject's rows (the request's scope) as a background export job. */
export async function exportSubject(ctx: ActorContext, input: SubjectExportInput) {
  const req = await loadRequest(ctx, input.requestId);
  const job = await startExport(ctx, { format: input.format, filter: { subjectHashes: requestHashes(req), tenantId: req.tenantId } });
  await ctx.db.dataSubjectRequest.update({ where: { id: req.id }, data: { exportJobId: job.id } });
  return job;
}

/** Destroys (deletes or anonymizes) the subject's rows with a destruction record, and closes the request. */
export async function destroySubject(ctx: ActorContext, input: SubjectDestroyInput) {
  const req = await loadRequest(ctx, input.requestId);
  const client = await pgPool(ctx.db).connect();
  try {
    await client.query("BEGIN");
    const rec = await removeRows(client, {
      actor: ctx.actor,
      ip: ctx.ip,
      reason: "subject_request",
      method: input.method,
      where: whereSql({ subjectHashes: requestHashes(req), tenantId: req.tenantId }, `"CallLog"`),
      tenantId: req.tenantId,
      subjectHash: req.subjectHash,
      policy: { requestId: req.id, reference: req.reference },
      periodTo: new Date(),
    });
    await client.query(`UPDATE "DataSubjectRequest" SET "destructionId" = $1, "closedAt" = now() AT TIME ZONE 'UTC' WHERE id = $2`, [rec.id, req.id]);
    await client.query("COMMIT");
    return rec;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}
