import type { ActorContext } from "../auth/actor.ts";
import { inForce } from "../shared/dated.ts";
import { recordAudit } from "../audit/record.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import type { AddPlanPriceInput, SetHardwareRateInput, SetPlanLimitsInput } from "./schemas.ts";

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
  const current = (kind: string, key: string) => inForce(rates, Date.now(), (r) => r.kind === kind && r.key === key);
  return {
    plans,
    hardware: [
      ...gpuModels.map((g) => ({ kind: "gpu" as const, key: g.modelName, count: g._count._all, rate: current("gpu", g.modelName) })),
      ...cpuNodes.map((n) => ({ kind: "cpu" as const, key: n.hostname, count: 1, rate: current("cpu", n.hostname) })),
    ],
  };
}

/** A plan's gateway terms: default limits, overload class and fair-share weight (audited; the gateways reload on the change). */
export async function setPlanLimits(ctx: ActorContext, input: SetPlanLimitsInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.pricePlan.findUnique({ where: { id: input.planId } });
    if (!before) throw new NotFoundError("Price plan");
    const after = await tx.pricePlan.update({ where: { id: before.id }, data: { rpmLimit: input.rpmLimit, tpmLimit: input.tpmLimit, priority: input.priority, fairShareWeight: input.fairShareWeight } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "priceplan.limits.set", targetType: "priceplan", targetId: before.id, before, after });
    return after;
  });
}
