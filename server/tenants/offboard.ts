import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { InvalidInputError } from "../errors.ts";
import { claimTenant } from "./tenants.ts";
import type { OffboardTenantInput } from "./schemas.ts";

/**
 * A tenant that leaves: in one transaction its status becomes offboarded (its users can no longer
 * sign in: server/auth/membership.ts), every key it holds is revoked (the gateways refuse them
 * within milliseconds, on the ApiKey NOTIFY), and an audit event records it. Nothing is deleted
 * here: its call log stays for its retention period and is then destroyed, with a destruction
 * record, by the periodic destruction run (server/kvkk/destruction.ts), as KVKK asks.
 */
export async function offboardTenant(ctx: ActorContext, input: OffboardTenantInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await claimTenant(tx, input.id, input.expectedUpdatedAt);
    if (input.confirmSlug !== before.slug) throw new InvalidInputError("confirmSlug", `type the tenant's slug, ${before.slug}, to confirm`);
    const now = new Date();
    const { count: keysRevoked } = await tx.apiKey.updateMany({ where: { tenantId: before.id, revokedAt: null }, data: { revokedAt: now } });
    const after = await tx.tenant.update({ where: { id: before.id }, data: { status: "offboarded", offboardedAt: now } });
    const [own, settings, last] = await Promise.all([
      tx.tenantRetention.findUnique({ where: { tenantId: before.id } }),
      tx.kvkkSettings.findUnique({ where: { id: "singleton" } }),
      tx.callLog.findFirst({ where: { tenantId: before.id }, orderBy: { startedAt: "desc" }, select: { startedAt: true } }),
    ]);
    const retentionDays = own?.days ?? settings?.defaultRetentionDays ?? 730;
    // The newest row is the last to go: the call log is gone, all of it, by then.
    const callLogKeptUntil = new Date((last?.startedAt ?? now).getTime() + retentionDays * 86_400_000);
    const summary = { keysRevoked, retentionDays, callLogKeptUntil };
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "tenant.offboard", targetType: "tenant", targetId: before.id, before, after: { ...after, ...summary } });
    return { tenant: after, ...summary };
  });
}
