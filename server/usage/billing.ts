import type { PrismaClient } from "../db/generated/client.ts";
import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import { budgetStatus, usageTenant } from "./queries.ts";
import { spentThisMonth } from "./spend.ts";
import type { AddPlanPriceInput, SetBudgetInput, SetHardwareRateInput } from "./schemas.ts";

/**
 * Sets or clears the hard-cap block of tenants (all, or those given): blocked while a hard-capped
 * tenant's charges this month have reached its budget. The gateways reload on the change (the
 * Tenant table's NOTIFY trigger) and refuse that tenant's calls with 429 naming the budget.
 */
export async function refreshBudgetBlocks(db: PrismaClient, tenantIds?: string[]): Promise<{ blocked: string[]; cleared: string[] }> {
  const tenants = await db.tenant.findMany({ where: { ...(tenantIds ? { id: { in: tenantIds } } : {}), OR: [{ budgetHardCap: true }, { budgetBlockedAt: { not: null } }] } });
  if (tenants.length === 0) return { blocked: [], cleared: [] };
  const spent = await spentThisMonth(db, tenants.map((t) => t.id));
  const blocked: string[] = [];
  const cleared: string[] = [];
  for (const t of tenants) {
    const s = spent.get(t.id)!;
    const over = t.budgetHardCap && t.monthlyBudget !== null && s.gte(t.monthlyBudget);
    if (over && !t.budgetBlockedAt) {
      await db.$transaction(async (tx) => {
        await tx.tenant.update({ where: { id: t.id }, data: { budgetBlockedAt: new Date() } });
        await recordAudit(tx, { actor: null, action: "tenant.budget.blocked", targetType: "tenant", targetId: t.id, after: { spent: s.toFixed(2), budget: t.monthlyBudget!.toFixed(2) } });
      });
      blocked.push(t.id);
    } else if (!over && t.budgetBlockedAt) {
      await db.$transaction(async (tx) => {
        await tx.tenant.update({ where: { id: t.id }, data: { budgetBlockedAt: null } });
        await recordAudit(tx, { actor: null, action: "tenant.budget.unblocked", targetType: "tenant", targetId: t.id, after: { spent: s.toFixed(2), budget: t.monthlyBudget?.toFixed(2) ?? null, hardCap: t.budgetHardCap } });
      });
      cleared.push(t.id);
    }
  }
  return { blocked, cleared };
}

/** A tenant's monthly budget and hard cap: set by the tenant for itself, or by an admin. */
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
  // Raising the budget lets calls through again at once, not at the next roll-up.
  await refreshBudgetBlocks(ctx.db, [tenant.id]);
  return budgetStatus(ctx.db, tenant.id);
}

/** A new dated price for a plan. Never in the past: what was charged stays as it was charged. */
export async function addPlanPrice(ctx: ActorContext, input: AddPlanPriceInput) {
  if (input.effectiveFrom.getTime() < Date.now() - 60_000) throw new InvalidInputError("effectiveFrom", "a price cannot take effect in the past: calls already made keep the price they were made at");
  if (!(await ctx.db.pricePlan.findUnique({ where: { id: input.planId } }))) throw new NotFoundError("Price plan");
  if (input.endpointId && !(await ctx.db.endpoint.findUnique({ where: { id: input.endpointId } }))) throw new InvalidInputError("endpointId", "unknown endpoint");
  return ctx.db.$transaction(async (tx) => {
    const row = await tx.planPrice.create({ data: { ...input, endpointId: input.endpointId ?? null, createdById: ctx.actor.userId } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "priceplan.price.add", targetType: "priceplan", targetId: input.planId, after: row });
    return row;
  });
}

/** An hourly rate for a GPU model or a CPU node, from the start of an hour not yet over. */
export async function setHardwareRate(ctx: ActorContext, input: SetHardwareRateInput) {
  const hourStart = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  if (input.effectiveFrom.getTime() < hourStart) throw new InvalidInputError("effectiveFrom", "a rate cannot change hours already over");
  const known =
    input.kind === "gpu" ? await ctx.db.gpu.findFirst({ where: { modelName: input.key } }) : await ctx.db.node.findFirst({ where: { hostname: input.key, gpus: { none: {} } } });
  if (!known) throw new InvalidInputError("key", input.kind === "gpu" ? "no GPU of this model is in the cluster" : "no CPU node has this hostname");
  return ctx.db.$transaction(async (tx) => {
    const row = await tx.hardwareRate.create({ data: { ...input, createdById: ctx.actor.userId } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "hardware.rate.set", targetType: "hardware", targetId: input.key, after: row });
    return row;
  });
}

/** Plans with their dated prices, and every GPU model and CPU node with its rate (or none yet). */
export async function pricing({ db }: ActorContext) {
  const [plans, rates, gpuModels, cpuNodes] = await Promise.all([
    db.pricePlan.findMany({ orderBy: { name: "asc" }, include: { prices: { orderBy: { effectiveFrom: "desc" } }, _count: { select: { tenants: true } } } }),
    db.hardwareRate.findMany({ orderBy: { effectiveFrom: "desc" } }),
    db.gpu.groupBy({ by: ["modelName"], _count: { _all: true } }),
    db.node.findMany({ where: { gpus: { none: {} } }, select: { hostname: true } }),
  ]);
  const current = (kind: string, key: string) => rates.find((r) => r.kind === kind && r.key === key && r.effectiveFrom.getTime() <= Date.now()) ?? null;
  return {
    plans,
    hardware: [
      ...gpuModels.map((g) => ({ kind: "gpu" as const, key: g.modelName, count: g._count._all, rate: current("gpu", g.modelName) })),
      ...cpuNodes.map((n) => ({ kind: "cpu" as const, key: n.hostname, count: 1, rate: current("cpu", n.hostname) })),
    ],
  };
}
