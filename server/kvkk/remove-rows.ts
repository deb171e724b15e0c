import { createId } from "./id.ts";
import type pg from "pg";
import type { Actor } from "../auth/actor.ts";
import { hourDigests, tsLiteral } from "../audit/seal/hour-digests.ts";
import { EMPTY_DIGEST } from "../audit/seal/digest.ts";
import { adjustmentsSha256, type Adjustment } from "../audit/seal/adjustments.ts";
import { recordAuditSql } from "./audit-sql.ts";

export type Method = "delete" | "anonymize";

/** The personal fields anonymization drops; counts, tokens, times, endpoint and version stay for the cost pages. */
const ANONYMIZE_SET = `"clientIp" = NULL, "apiKeyId" = NULL, "userHash" = NULL`;
const NOT_ANONYMOUS = `("clientIp" IS NOT NULL OR "apiKeyId" IS NOT NULL OR "userHash" IS NOT NULL)`;

const EPOCH = new Date(0);
const FAR = new Date(Date.UTC(9999, 0));

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
 * audit event, in the caller's transaction. The adjustments are the per-hour digests of what left
 * each sealed hour (and, anonymizing, of what replaced it), so the chain check still passes after.
 * Runs under the call-log sealer's lock: no hour is sealed halfway through.
 */
export async function removeRows(client: pg.PoolClient, o: RemoveOpts) {
  await client.query("SELECT pg_advisory_xact_lock(hashtext('kule_seal_call_log'))");
  const sealed = await sealedHours(client);
  const removed = await hourDigests(client, "call_log", EPOCH, FAR, o.method === "anonymize" ? `${o.where} AND ${NOT_ANONYMOUS}` : o.where);
  let rowCount = 0;
  let periodFrom: number | null = null;
  for (const [h, m] of removed) {
    rowCount += m.count;
    periodFrom = periodFrom === null ? h : Math.min(periodFrom, h);
  }
  let added = new Map<number, { count: number; hex(): string }>();
  if (o.method === "delete") {
    for (const p of o.partitions ?? []) await client.query(`DROP TABLE "${p.replace(/"/g, "")}"`);
    await client.query(`DELETE FROM "CallLog" WHERE ${o.where}`);
  } else {
    await client.query(`CREATE TEMP TABLE kule_anonymized ON COMMIT DROP AS SELECT "requestId", "startedAt" FROM "CallLog" WHERE ${o.where} AND ${NOT_ANONYMOUS}`);
    await client.query(`UPDATE "CallLog" c SET ${ANONYMIZE_SET} FROM kule_anonymized a WHERE c."requestId" = a."requestId" AND c."startedAt" = a."startedAt"`);
    added = await hourDigests(client, "call_log", EPOCH, FAR, `("requestId", "startedAt") IN (SELECT "requestId", "startedAt" FROM kule_anonymized)`);
    await client.query(`DROP TABLE kule_anonymized`);
  }
  const adjustments: Adjustment[] = [...removed.entries()]
    .filter(([h]) => sealed && h >= sealed.first && h < sealed.end)
    .sort(([a], [b]) => a - b)
    .map(([h, m]) => {
      const a = added.get(h);
      return { start: new Date(h).toISOString(), removedCount: m.count, removedDigest: m.hex(), addedCount: a?.count ?? 0, addedDigest: a ? a.hex() : EMPTY_DIGEST };
    });
  const id = createId();
  const runAt = new Date();
  const keepUntil = new Date(runAt);
  keepUntil.setUTCFullYear(keepUntil.getUTCFullYear() + 3);
  const from = new Date(periodFrom ?? o.periodTo.getTime());
  await client.query(
    `INSERT INTO "DestructionRecord" (id, reason, policy, "tenantId", "subjectHash", "periodFrom", "periodTo", "rowCount", method, "partitionsDropped", adjustments, "runById", "runByEmail", "runAt", "keepUntil")
     VALUES ($1, $2, $3, $4, $5, $6::timestamptz AT TIME ZONE 'UTC', $7::timestamptz AT TIME ZONE 'UTC', $8, $9, $10, $11, $12, $13, $14::timestamptz AT TIME ZONE 'UTC', $15::timestamptz AT TIME ZONE 'UTC')`,
    [id, o.reason, JSON.stringify(o.policy), o.tenantId, o.subjectHash ?? null, from, o.periodTo, rowCount, o.method, o.partitions ?? [], JSON.stringify(adjustments), o.actor?.userId ?? null, o.actor?.email ?? null, runAt, keepUntil],
  );
  await recordAuditSql(client, {
    actor: o.actor,
    ip: o.ip,
    action: "kvkk.destruction",
    targetType: "destruction",
    targetId: id,
    after: { reason: o.reason, tenantId: o.tenantId, method: o.method, rowCount, periodFrom: from, periodTo: o.periodTo, partitionsDropped: o.partitions ?? [], policy: o.policy, adjustmentsSha256: adjustmentsSha256(adjustments) },
  });
  return { id, rowCount, periodFrom: from, partitionsDropped: o.partitions ?? [] };
}

export { tsLiteral };
