import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import type { PolicyUpdateInput } from "./schemas.ts";

/** Stores in the order the printed policy lists them. */
const ORDER = ["call_log", "audit_ip", "exports", "subject_requests", "gateway_journal", "transfer_register", "destruction_records"];

/** The storage-and-destruction policy as printed: entries, the destruction cycle, minimums, holds in force, recent runs. */
export async function getPolicy({ db }: ActorContext) {
  const [entries, settings, holds, runs] = await Promise.all([
    db.policyEntry.findMany(),
    db.kvkkSettings.findUniqueOrThrow({ where: { id: "singleton" } }),
    db.legalHold.findMany({ where: { releasedAt: null }, orderBy: { createdAt: "desc" } }),
    db.destructionRun.findMany({ orderBy: { startedAt: "desc" }, take: 20 }),
  ]);
  entries.sort((a, b) => ORDER.indexOf(a.store) - ORDER.indexOf(b.store));
  return {
    entries,
    destructionIntervalDays: settings.destructionIntervalDays,
    defaultRetentionDays: settings.defaultRetentionDays,
    trafficLogMinDays: settings.trafficLogMinDays,
    lastDestructionAt: settings.lastDestructionAt,
    holds: holds.map((h) => ({ id: h.id, tenantId: h.tenantId, subject: h.subjectHash ? `${h.subjectHash.slice(0, 8)}…` : null, reason: h.reason, createdByEmail: h.createdByEmail, createdAt: h.createdAt })),
    runs,
  };
}

export async function updatePolicyEntry(ctx: ActorContext, input: PolicyUpdateInput) {
  const { store, expectedUpdatedAt, ...data } = input;
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.policyEntry.findUnique({ where: { store } });
    if (!before) throw new NotFoundError("Policy entry");
    const { count } = await tx.policyEntry.updateMany({ where: { store, updatedAt: expectedUpdatedAt }, data: { ...data, updatedByEmail: ctx.actor.email } });
    if (!count) throw new ConflictError("Someone changed this entry since you opened it; reload and try again.", { current: before });
    const after = await tx.policyEntry.findUniqueOrThrow({ where: { store } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.policy.update", targetType: "policy_entry", targetId: store, before, after });
    return after;
  });
}
