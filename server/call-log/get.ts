import type { Db } from "../db/client.ts";
import { pgPool } from "../db/pg-pool.ts";
import type { Actor } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { NotFoundError } from "../errors.ts";
import { env } from "../env.ts";
import type { GetCallInput } from "./schemas.ts";
import { scopeFilter, whereSql } from "./where.ts";
import { CALL_ROW_SQL, type CallRow } from "./list.ts";
import { clientIpView } from "./client-ip.ts";
import { revealIp, type StoredIp } from "./keys/reveal.ts";

/** Audit actions after which an endpoint's traffic split is what their `after` says. */
export const WEIGHT_ACTIONS = ["endpoint.create", "endpoint.weights.set", "endpoint.deploy", "endpoint.rollback", "endpoint.promote", "endpoint.version.add", "endpoint.version.remove", "rollout.start", "rollout.step", "rollout.rollback", "rollout.succeeded"];

export interface WeightsInForce {
  action: string;
  at: Date;
  actorEmail: string | null;
  after: unknown;
}

/**
 * One request's full record, and the control-plane state it ran under: the last change to its
 * endpoint's traffic split made before the request started, from the audit log.
 */
export async function getCall(ctx: { db: Db; actor: Actor; ip: string | null }, input: GetCallInput): Promise<CallRow & { weightsInForce: WeightsInForce | null; traceUrl: string | null }> {
  const where = whereSql(scopeFilter(ctx.actor, { requestId: input.requestId }));
  const { rows } = await pgPool(ctx.db).query<CallRow & StoredIp>(CALL_ROW_SQL(`SELECT * FROM "CallLog" c WHERE ${where} LIMIT 1`));
  if (!rows[0]) throw new NotFoundError("Call");
  const row = revealIp(rows[0]);
  const change = row.endpointId
    ? await ctx.db.auditEvent.findFirst({
        where: { targetType: "endpoint", targetId: row.endpointId, action: { in: WEIGHT_ACTIONS }, at: { lte: row.startedAt } },
        orderBy: [{ at: "desc" }, { id: "desc" }],
        select: { action: true, at: true, actorEmail: true, after: true },
      })
    : null;
  const view = await clientIpView(ctx, { reason: input.unmaskReason, target: row.requestId });
  // Every read of a call's personal data is logged, a tenant's own included (KVKK Art. 12: access logs).
  await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "calllog.read", targetType: "calllog", targetId: row.requestId, after: row.specialCategory ? { specialCategory: row.specialCategory } : undefined });
  // The trace viewer is the operators' own tool: staff get a link, a tenant its trace id alone.
  const traceUrl = row.traceId && env.KULE_TRACE_UI_URL && ctx.actor.role !== "tenant" ? env.KULE_TRACE_UI_URL.replace("{traceId}", row.traceId) : null;
  // A tenant sees the split, not which operator set it.
  return { ...view(row), traceUrl, weightsInForce: change && ctx.actor.role === "tenant" ? { ...change, actorEmail: null } : change };
}
