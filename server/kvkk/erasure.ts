import type pg from "pg";
import { pgPool } from "../db/pg-pool.ts";
import type { ActorContext } from "../auth/actor.ts";
import { recordAuditSql } from "../audit/record.ts";
import { tsLiteral } from "../audit/seal/hour-digests.ts";
import { whereSql } from "../call-log/where.ts";
import { removeRows } from "./remove-rows.ts";
import { holdsOn } from "./holds.ts";
import { destroyExportsOfTenant } from "./other-stores.ts";
import { rollUpTransfers } from "./transfer-register.ts";
import { loadRequest, requestFilter } from "./subject.ts";
import type { SubjectDestroyInput } from "./schemas.ts";

/**
 * What an erasure did and kept, and why: the answer to the applicant (KVKK Art. 13(3) asks for
 * the reason of whatever is refused). `held` lists the legal holds that kept everything.
 */
export interface ErasureAnswer {
  id: string | null;
  /** Rows deleted or anonymised. */
  rowCount: number;
  /** Rows inside Law 5651's minimum: the person's identifier erased, the traffic fields kept until `keptUntil`. */
  unlinked: number;
  /** Rows of the person kept whole until `keptUntil` (found by client IP, a traffic field itself). */
  keptWhole: number;
  keptUntil: Date | null;
  trafficLogMinDays: number | null;
  held: string[];
  exportsDeleted: number;
}

async function count(client: pg.PoolClient, where: string) {
  return Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "CallLog" WHERE ${where}`)).rows[0]!.n);
}

/**
 * A data subject's erasure (KVKK Art. 7 and 11(1)(e)), by the rules the periodic destruction
 * follows: nothing under a legal hold; rows older than Law 5651's minimum for traffic logs
 * deleted or anonymised; younger rows lose the person's identifier (the `user` hash) and keep the
 * traffic fields until the minimum ends, when the periodic run destroys them. The transfer
 * register takes the calls abroad first (it outlives the call log), and exports that could hold the
 * rows are deleted. Each step leaves a destruction record; the request is closed with the answer.
 */
export async function destroySubject(ctx: ActorContext, input: SubjectDestroyInput): Promise<ErasureAnswer> {
  const req = await loadRequest(ctx, input.requestId);
  const filter = requestFilter(req);
  const client = await pgPool(ctx.db).connect();
  try {
    await client.query("BEGIN");
    const person = whereSql(filter, `"CallLog"`);
    const tenantId = req.tenantId!;
    const held = await holdsOn(client, tenantId, filter.subjectHashes ?? []);
    const minDays = (await client.query<{ min: number | null }>(`SELECT "trafficLogMinDays" AS min FROM "KvkkSettings" WHERE id = 'singleton'`)).rows[0]?.min ?? null;
    const now = new Date();
    const keptUntilCut = minDays ? new Date(now.getTime() - minDays * 86_400_000) : null;
    const answer: ErasureAnswer = { id: null, rowCount: 0, unlinked: 0, keptWhole: 0, keptUntil: null, trafficLogMinDays: minDays, held, exportsDeleted: 0 };
    if (held.length) {
      await recordAuditSql(client, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.subject.erasure_held", targetType: "subject_request", targetId: req.id, after: { holds: held.length, rows: await count(client, person) } });
      await client.query("COMMIT");
      return answer;
    }
    await rollUpTransfers(client, now);
    const policy = { requestId: req.id, reference: req.reference, trafficLogMinDays: minDays };
    const old = keptUntilCut ? `${person} AND "startedAt" < ${tsLiteral(keptUntilCut)}` : person;
    const rec = await removeRows(client, { actor: ctx.actor, ip: ctx.ip, reason: "subject_request", method: input.method, where: old, tenantId, subjectHash: req.subjectHash, policy, periodTo: keptUntilCut ?? now });
    answer.id = rec.id;
    answer.rowCount = rec.rowCount;
    if (keptUntilCut) {
      const young = `${person} AND "startedAt" >= ${tsLiteral(keptUntilCut)}`;
      const y = (await client.query<{ n: string; last: Date | null }>(`SELECT count(*) AS n, max("startedAt") AT TIME ZONE 'UTC' AS last FROM "CallLog" WHERE ${young}`)).rows[0]!;
      const { last } = y;
      if (last) {
        const rows = Number(y.n);
        const un = await removeRows(client, { actor: ctx.actor, ip: ctx.ip, reason: "subject_request", method: "unlink", where: young, tenantId, subjectHash: req.subjectHash, policy: { ...policy, kept: "traffic fields, until Law 5651's minimum ends" }, periodTo: now });
        answer.unlinked = un.rowCount;
        answer.keptWhole = rows - un.rowCount;
        answer.keptUntil = new Date(last.getTime() + minDays! * 86_400_000);
      }
    }
    const exportsDone = await destroyExportsOfTenant(client, { actor: ctx.actor, ip: ctx.ip, tenantId, subjectHash: req.subjectHash, requestId: req.id, keepJobId: req.exportJobId });
    answer.exportsDeleted = exportsDone?.rowCount ?? 0;
    await client.query(`UPDATE "DataSubjectRequest" SET "destructionId" = $1, "closedAt" = now() AT TIME ZONE 'UTC' WHERE id = $2`, [rec.id, req.id]);
    await client.query("COMMIT");
    return answer;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}
