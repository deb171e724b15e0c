import fs from "node:fs/promises";
import type pg from "pg";
import type { Actor } from "../auth/actor.ts";
import { hourDigests } from "../audit/seal/hour-digests.ts";
import { EMPTY_HOUR } from "../audit/seal/digest.ts";
import type { Adjustment } from "../audit/seal/adjustments.ts";
import { exportFile } from "../call-log/export/jobs.ts";
import { recordDestruction } from "./remove-rows.ts";

interface StoreRun {
  actor: Actor | null;
  ip?: string | null;
  /** Rows older than this are due. */
  cutoff: Date;
  days: number;
}

const ts = `::timestamptz AT TIME ZONE 'UTC'`;

/**
 * Erases the IP of audit events older than the policy's period; the events themselves (who did
 * what, when) stay as access logs (KVKK Art. 12). Sealed hours are hashed just before and after,
 * as for the call log, so the chain check carries the audit stream's seal through the change.
 */
export async function destroyAuditIps(client: pg.PoolClient, o: StoreRun) {
  await client.query("SELECT pg_advisory_xact_lock(hashtext('kule_seal_audit_event'))");
  const where = `ip IS NOT NULL AND at < $1${ts}`;
  const touched = (await client.query<{ hour: Date; n: string }>(`SELECT date_trunc('hour', at) AT TIME ZONE 'UTC' AS hour, count(*) AS n FROM "AuditEvent" WHERE ${where} GROUP BY 1 ORDER BY 1`, [o.cutoff])).rows;
  if (!touched.length) return null;
  const sealed = (await client.query<{ start: Date }>(`SELECT start AT TIME ZONE 'UTC' AS start FROM "SealSegment" WHERE stream = 'audit_event' AND start = ANY($1::timestamp[])`, [touched.map((t) => t.hour.toISOString().replace("Z", ""))])).rows.map((r) => r.start.getTime());
  const before = await hourDigests(client, "audit_event", sealed);
  const r = await client.query(`UPDATE "AuditEvent" SET ip = NULL WHERE ${where}`, [o.cutoff]);
  const after = await hourDigests(client, "audit_event", sealed);
  const adjustments: Adjustment[] = sealed.map((h) => {
    const [b, a] = [before.get(h) ?? EMPTY_HOUR, after.get(h) ?? EMPTY_HOUR];
    return { start: new Date(h).toISOString(), beforeCount: b.count, beforeDigest: b.digest, afterCount: a.count, afterDigest: a.digest };
  });
  const rowCount = r.rowCount ?? 0;
  const id = await recordDestruction(client, { store: "audit_ip", actor: o.actor, ip: o.ip, reason: "retention", method: "delete", policy: { store: "audit_ip", days: o.days, erased: "ip" }, tenantId: null, subjectHash: null, periodFrom: touched[0]!.hour, periodTo: o.cutoff, rowCount, partitions: [], adjustments });
  return { id, rowCount };
}

type ExportJobRow = { id: string; format: string; createdAt: Date };

/** Deletes the export jobs with their files (data and manifest); the caller records why. */
async function deleteJobs(client: pg.PoolClient, jobs: ExportJobRow[]) {
  await client.query(`DELETE FROM "ExportJob" WHERE id = ANY($1)`, [jobs.map((j) => j.id)]);
  // The files go with the rows; should the transaction then fail, the next run finds the rows again and `force` skips the missing files.
  for (const j of jobs) for (const part of ["data", "manifest"] as const) await fs.rm(exportFile(j.id, j.format, part), { force: true });
}

/** Deletes export jobs older than the period, with their files. */
export async function destroyExports(client: pg.PoolClient, o: StoreRun) {
  const jobs = (await client.query<ExportJobRow>(`SELECT id, format, "createdAt" AT TIME ZONE 'UTC' AS "createdAt" FROM "ExportJob" WHERE "createdAt" < $1${ts} AND state <> 'running' ORDER BY "createdAt"`, [o.cutoff])).rows;
  if (!jobs.length) return null;
  await deleteJobs(client, jobs);
  const id = await recordDestruction(client, { store: "exports", actor: o.actor, ip: o.ip, reason: "retention", method: "delete", policy: { store: "exports", days: o.days, jobs: jobs.map((j) => j.id) }, tenantId: null, subjectHash: null, periodFrom: jobs[0]!.createdAt, periodTo: o.cutoff, rowCount: jobs.length, partitions: [], adjustments: [] });
  return { id, rowCount: jobs.length };
}

/**
 * A data subject's erasure reaches the copies: every finished export that could hold the tenant's
 * rows (the tenant's own, or staff's of all tenants or of this one) is deleted with its files, and
 * recorded. An export is a copy for a purpose already served; it can be made again without the person.
 * The request's own export (the applicant's copy, Art. 11(1)(b)) stays until the exports' period.
 */
export async function destroyExportsOfTenant(client: pg.PoolClient, o: { actor: Actor | null; ip?: string | null; tenantId: string; subjectHash: string; requestId: string; keepJobId: string | null }) {
  const jobs = (
    await client.query<ExportJobRow>(
      `SELECT id, format, "createdAt" AT TIME ZONE 'UTC' AS "createdAt" FROM "ExportJob"
        WHERE state <> 'running' AND id IS DISTINCT FROM $2 AND ("tenantScope" = $1 OR ("tenantScope" IS NULL AND coalesce(filter->>'tenantId', $1) = $1)) ORDER BY "createdAt"`,
      [o.tenantId, o.keepJobId],
    )
  ).rows;
  if (!jobs.length) return null;
  await deleteJobs(client, jobs);
  const id = await recordDestruction(client, { store: "exports", actor: o.actor, ip: o.ip, reason: "subject_request", method: "delete", policy: { store: "exports", requestId: o.requestId, jobs: jobs.map((j) => j.id) }, tenantId: o.tenantId, subjectHash: o.subjectHash, periodFrom: jobs[0]!.createdAt, periodTo: new Date(), rowCount: jobs.length, partitions: [], adjustments: [] });
  return { id, rowCount: jobs.length };
}

/** Deletes data subjects' applications closed longer ago than the period (their erasure records stay). */
export async function destroySubjectRequests(client: pg.PoolClient, o: StoreRun, heldSubjects: string[]) {
  const r = await client.query<{ closedAt: Date }>(
    `DELETE FROM "DataSubjectRequest" WHERE "closedAt" IS NOT NULL AND "closedAt" < $1${ts} AND NOT ("subjectHash" = ANY($2)) RETURNING "closedAt" AT TIME ZONE 'UTC' AS "closedAt"`,
    [o.cutoff, heldSubjects],
  );
  if (!r.rowCount) return null;
  const from = new Date(Math.min(...r.rows.map((x) => x.closedAt.getTime())));
  const id = await recordDestruction(client, { store: "subject_requests", actor: o.actor, ip: o.ip, reason: "retention", method: "delete", policy: { store: "subject_requests", days: o.days }, tenantId: null, subjectHash: null, periodFrom: from, periodTo: o.cutoff, rowCount: r.rowCount, partitions: [], adjustments: [] });
  return { id, rowCount: r.rowCount };
}
