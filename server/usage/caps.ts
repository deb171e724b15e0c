import { Prisma, type PrismaClient } from "../db/generated/client.ts";
import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { budgetStatus, usageTenant } from "./queries.ts";
import { spentThisMonth } from "./spend.ts";
import type { SetBudgetInput } from "./schemas.ts";

/**
 * The two caps on a tenant's month: its own budget with a hard cap (the tenant's to set and to
 * lift) and the platform's credit limit (admins'). The call log's insert trigger blocks a tenant
 * the moment its charges cross either (kule_live_spend); this module sets the block when a cap is
 * lowered below what is already spent and clears it when a cap is raised or a month begins.
 */
const CAPS = [
  { blockedAt: "budgetBlockedAt", action: "tenant.budget", limit: (t: CapTenant) => (t.budgetHardCap ? t.monthlyBudget : null) },
  { blockedAt: "creditBlockedAt", action: "tenant.credit", limit: (t: CapTenant) => t.creditLimit },
] as const;

interface CapTenant {
  id: string;
  budgetHardCap: boolean;
  monthlyBudget: Prisma.Decimal | null;
  creditLimit: Prisma.Decimal | null;
  budgetBlockedAt: Date | null;
  creditBlockedAt: Date | null;
}

/**
 * Blocks or unblocks tenants (all with a cap or a block, or those given) against this month's
 * spend. Each change is guarded (it applies only if the block is still as read, so a concurrent
 * flush blocking the tenant is never undone) and audited. The gateways reload on the Tenant
 * update's NOTIFY, within milliseconds.
 */
export async function refreshBudgetBlocks(db: PrismaClient, tenantIds?: string[]): Promise<{ blocked: string[]; cleared: string[] }> {
  const tenants: CapTenant[] = await db.tenant.findMany({
    where: { ...(tenantIds ? { id: { in: tenantIds } } : {}), OR: [{ budgetHardCap: true }, { creditLimit: { not: null } }, { budgetBlockedAt: { not: null } }, { creditBlockedAt: { not: null } }] },
  });
  const out = { blocked: [] as string[], cleared: [] as string[] };
  if (tenants.length === 0) return out;
  const spent = await spentThisMonth(db, tenants.map((t) => t.id));
  for (const t of tenants) {
    const s = spent.get(t.id)!;
    for (const cap of CAPS) {
      const limit = cap.limit(t);
      const over = limit !== null && s.gte(limit);
      const blocked = t[cap.blockedAt] !== null;
      if (over === blocked) continue;
      const changed = await db.$transaction(async (tx) => {
        const { count } = await tx.tenant.updateMany({ where: { id: t.id, [cap.blockedAt]: blocked ? { not: null } : null }, data: { [cap.blockedAt]: over ? new Date() : null } });
        if (count) await recordAudit(tx, { actor: null, action: `${cap.action}.${over ? "blocked" : "unblocked"}`, targetType: "tenant", targetId: t.id, after: { spent: s.toFixed(2), limit: limit?.toFixed(2) ?? null } });
        return count > 0;
      });
      if (changed) out[over ? "blocked" : "cleared"].push(t.id);
    }
  }
  return out;
}

/** A tenant's monthly budget and hard cap: set by the tenant for itself, or by an admin. Never the credit limit. */
export async function setBudget(ctx: ActorContext, input: SetBudgetInput) {
  const tenant = await usageTenant(ctx, input.tenantId);
  await ctx.db.$transaction(async (tx) => {
    await tx.tenant.update({ where: { id: tenant.id }, data: { monthlyBudget: input.monthlyBudget, budgetHardCap: input.hardCap } });
    await recordAudit(tx, {
      actor: ctx.actor,
      ip: ctx.ip,
      action: "tenant.budget.set",
      targetType: "tenant",
      targetId: tenant.id,
      before: { monthlyBudget: tenant.monthlyBudget?.toFixed(2) ?? null, hardCap: tenant.budgetHardCap },
      after: { monthlyBudget: input.monthlyBudget, hardCap: input.hardCap },
    });
  });
  // A budget lowered below the spend blocks at once; one raised lets calls through at once.
  await refreshBudgetBlocks(ctx.db, [tenant.id]);
  return budgetStatus(ctx.db, tenant.id);
}
