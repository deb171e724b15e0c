import { createId } from "./id.ts";
import type pg from "pg";
import type { Actor } from "../auth/actor.ts";
import { hourDigests, tsLiteral } from "../audit/seal/hour-digests.ts";
import { EMPTY_HOUR } from "../audit/seal/digest.ts";
import { adjustmentsSha256, type Adjustment } from "../audit/seal/adjustments.ts";
import { recordAuditSql } from "../audit/record.ts";
import { ANONYMISATION_TECHNIQUE, foldRows } from "./fold.ts";

export type Method = "delete" | "anonymize" | "unlink";

/**
 * Unlinking (a data subject's erasure inside Law 5651's minimum for traffic logs): the person's
 * identifier goes, the traffic fields stay until the minimum ends.
 */
const UNLINK_SET = `"userHash" = NULL, "userHashKeyVersion" = NULL`;

/** Hours already sealed: only their digests need adjusting (rows gone before sealing are never sealed). */
async function sealedHours(client: pg.PoolClient): Promise<{ first: number; end: number } | null> {
  const r = await client.query<{ first: Date | null; last: Date | null }>(
    `SELECT min(start) AT TIME ZONE 'UTC' AS first, max(start) AT TIME ZONE 'UTC' AS last FROM "SealSegment" WHERE stream = 'call_log'`,
  );
  const { first, last } = r.rows[0]!;
  return first && last ? { first: first.getTime(), end: last.getTime() + 3_600_000 } : null;
}

export interface RemoveOpts {
  actor: Actor | null;
  ip?: string | null;
  reason: "retention" | "subject_request";
  method: Method;
  /** SQL over "CallLog" rows built from escaped literals; rows matching it are removed. */
  where: string;
  tenantId: string | null;
  subjectHash?: string | null;
  policy: Record<string, unknown>;
  periodTo: Date;
  /** Whole monthly partitions to drop instead of deleting row by row (all their rows match `where`). */
  partitions?: string[];
}

/**
 * Deletes or anonymizes call-log rows and writes the destruction record, its adjustments and its
 * audit event, in the caller's transaction. Each sealed hour it touches is hashed just before and
 * just after the change; the chain check carries the seal through that pair, so it still passes
 * after, while a forgery made before the destruction is not laundered by it. Runs under the
 * call-log sealer's lock: no hour is sealed halfway through.
 */
export async function removeRows(client: pg.PoolClient, o: RemoveOpts) {
  await client.query("SELECT pg_advisory_xact_lock(hashtext('kule_seal_call_log'))");
  const sealed = await sealedHours(client);
  const target = o.method === "unlink" ? `${o.where} AND "userHash" IS NOT NULL` : o.where;
  const touched = (
    await client.query<{ hour: Date; n: string }>(
      `SELECT date_trunc('hour', "startedAt") AT TIME ZONE 'UTC' AS hour, count(*) AS n FROM "CallLog" WHERE ${target} GROUP BY 1 ORDER BY 1`,
    )
  ).rows.map((r) => ({ hour: r.hour.getTime(), rows: Number(r.n) }));
  const rowCount = touched.reduce((n, t) => n + t.rows, 0);
  const periodFrom = touched[0]?.hour ?? null;
  const sealedTouched = touched.map((t) => t.hour).filter((h) => sealed && h >= sealed.first && h < sealed.end);
  const before = await hourDigests(client, "call_log", sealedTouched);
  if (o.method === "unlink") {
    await client.query(`UPDATE "CallLog" SET ${UNLINK_SET} WHERE ${target}`);
  } else {
    if (o.method === "anonymize") await foldRows(client, o.where, touched.map((t) => t.hour));
    for (const p of o.partitions ?? []) await client.query(`DROP TABLE "${p.replace(/"/g, "")}"`);
    await client.query(`DELETE FROM "CallLog" WHERE ${o.where}`);
  }
  const after = await hourDigests(client, "call_log", sealedTouched);
  const adjustments: Adjustment[] = sealedTouched.map((h) => {
    const [b, a] = [before.get(h) ?? EMPTY_HOUR, after.get(h) ?? EMPTY_HOUR];
    return { start: new Date(h).toISOString(), beforeCount: b.count, beforeDigest: b.digest, afterCount: a.count, afterDigest: a.digest };
  });
  const policy = o.method === "anonymize" ? { ...o.policy, technique: ANONYMISATION_TECHNIQUE } : o.policy;
  const from = new Date(periodFrom ?? o.periodTo.getTime());
  const id = await recordDestruction(client, { store: "call_log", actor: o.actor, ip: o.ip, reason: o.reason, method: o.method, policy, tenantId: o.tenantId, subjectHash: o.subjectHash ?? null, periodFrom: from, periodTo: o.periodTo, rowCount, partitions: o.partitions ?? [], adjustments });
  return { id, rowCount, periodFrom: from, partitionsDropped: o.partitions ?? [] };
}

export interface RecordFields {
  store: "call_log" | "audit_ip" | "exports" | "subject_requests";
  actor: Actor | null;
  ip?: string | null;
  reason: string;
  method: Method;
  policy: Record<string, unknown>;
  tenantId: string | null;
  subjectHash: string | null;
  periodFrom: Date;
  periodTo: Date;
  rowCount: number;
  partitions: string[];
  adjustments: Adjustment[];
}

/**
 * Writes a destruction record (kept at least 3 years: Regulation Art. 7(3)) and its audit event,
 * which seals the SHA-256 of its adjustments, in the caller's transaction. The one writer of records.
 */
export async function recordDestruction(client: pg.PoolClient, r: RecordFields): Promise<string> {
  const id = createId();
  const runAt = new Date();
  const keepUntil = new Date(runAt);
  keepUntil.setUTCFullYear(keepUntil.getUTCFullYear() + 3);
  await client.query(
    `INSERT INTO "DestructionRecord" (id, store, reason, policy, "tenantId", "subjectHash", "periodFrom", "periodTo", "rowCount", method, "partitionsDropped", adjustments, "runById", "runByEmail", "runAt", "keepUntil")
     VALUES ($1, $16, $2, $3, $4, $5, $6::timestamptz AT TIME ZONE 'UTC', $7::timestamptz AT TIME ZONE 'UTC', $8, $9, $10, $11, $12, $13, $14::timestamptz AT TIME ZONE 'UTC', $15::timestamptz AT TIME ZONE 'UTC')`,
    [id, r.reason, JSON.stringify(r.policy), r.tenantId, r.subjectHash, r.periodFrom, r.periodTo, r.rowCount, r.method, r.partitions, JSON.stringify(r.adjustments), r.actor?.userId ?? null, r.actor?.email ?? null, runAt, keepUntil, r.store],
  );
  await recordAuditSql(client, {
    actor: r.actor,
    ip: r.ip,
    action: "kvkk.destruction",
    targetType: "destruction",
    targetId: id,
    after: { store: r.store, reason: r.reason, tenantId: r.tenantId, method: r.method, rowCount: r.rowCount, periodFrom: r.periodFrom, periodTo: r.periodTo, partitionsDropped: r.partitions, policy: r.policy, adjustmentsSha256: adjustmentsSha256(r.adjustments) },
  });
  return id;
}

export { tsLiteral };
