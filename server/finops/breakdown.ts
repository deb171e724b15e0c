import { Prisma } from "../db/generated/client.ts";
import type { ActorContext } from "../auth/actor.ts";
import { ownTenant, tenantScope } from "../auth/scope.ts";
import { recordAudit } from "../audit/record.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import { MONTHLY, PLATFORM, proratedMonthly, shareBill, type MeteredPart, type SpreadRule } from "./allocation.ts";
import { energyPrice, overheadAt, type OverheadKind } from "./overheads.ts";
import type { CostBreakdownInput, SetOverheadInput } from "./schemas.ts";

const D = Prisma.Decimal;
const HOUR = 3_600_000;
const KINDS: OverheadKind[] = ["energy", "storage", "software", "operations"];

/**
 * The month's whole cost part by part — GPU time, energy, storage (as measured and shared by use)
 * and software and operations (the admin's monthly amounts, spread by the admin's rule) — each
 * shared out to the kuruş between the tenants and the platform (what no tenant used). The running
 * month counts to now. A tenant user gets its own shares with the rules named, not the bill's
 * total or anyone else's share; staff get every tenant (or the one they name) and the platform.
 */
export async function costBreakdown(ctx: ActorContext, input: CostBreakdownInput) {
  const { db, actor } = ctx;
  const scoped = tenantScope(actor, input.tenantId);
  if (scoped && !(await db.tenant.findUnique({ where: { id: scoped }, select: { id: true } }))) throw new NotFoundError("Tenant");
  const start = new Date(`${input.month}-01T00:00:00Z`);
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const until = new Date(Math.min(end.getTime(), Math.max(start.getTime(), Date.now())));
  const [tenants, [hours], overheads] = await Promise.all([
    db.$queryRaw<{ tenantId: string; name: string; gpu: Prisma.Decimal; energy: Prisma.Decimal; storage: Prisma.Decimal; gpuHours: Prisma.Decimal; tokens: bigint; requests: bigint }[]>`
      SELECT u."tenantId", t.name, sum(u."infraCost") AS gpu, sum(u."energyCost") AS energy, sum(u."storageCost") AS storage, sum(u."gpuHours") AS "gpuHours",
             sum(u."promptTokens" + u."completionTokens")::bigint AS tokens, sum(u.requests)::bigint AS requests
        FROM "UsageDay" u JOIN "Tenant" t ON t.id = u."tenantId"
       WHERE u.day >= ${start}::date AND u.day < ${end}::date GROUP BY 1, 2 ORDER BY 2`,
    db.$queryRaw<{ gpu: Prisma.Decimal | null; energy: Prisma.Decimal | null; storage: Prisma.Decimal | null; deviceHours: Prisma.Decimal | null; kwh: Prisma.Decimal | null }[]>`
      SELECT sum(cost) AS gpu, sum("energyCost") AS energy, sum("storageCost") AS storage, sum("deviceHours") AS "deviceHours", sum("energyKwh") AS kwh
        FROM "CostHour" WHERE hour >= ${start} AND hour < ${end}`,
    db.costOverhead.findMany(),
  ]);
  const metered: Record<MeteredPart, Prisma.Decimal> = { gpu: new D(hours?.gpu ?? 0), energy: new D(hours?.energy ?? 0), storage: new D(hours?.storage ?? 0) };
  const use = tenants.map((t) => ({ tenantId: t.tenantId, gpuHours: new D(t.gpuHours ?? 0), tokens: t.tokens, requests: Number(t.requests) }));
  const monthly = Object.fromEntries(
    MONTHLY.map((part) => {
      const rows = overheads.filter((o) => o.kind === part);
      const current = overheadAt(overheads, part, until.getTime() - 1);
      return [part, rows.length && current ? { amount: proratedMonthly(rows, start, end, until), spread: (current.spread ?? "even") as SpreadRule } : null];
    }),
  ) as Parameters<typeof shareBill>[0]["monthly"];
  const parts = shareBill({
    metered,
    attributed: new Map(tenants.map((t) => [t.tenantId, { gpu: new D(t.gpu ?? 0), energy: new D(t.energy ?? 0), storage: new D(t.storage ?? 0) }])),
    use,
    idleGpuHours: new D(hours?.deviceHours ?? 0).sub(use.reduce((s, u) => s.add(u.gpuHours), new D(0))),
    monthly,
  });
  const names = new Map(tenants.map((t) => [t.tenantId, t.name]));
  const staff = ownTenant(actor) === null;
  const shown = (id: string) => id !== PLATFORM && (!scoped || id === scoped);
  const energy = overheadAt(overheads, "energy", until.getTime() - 1);
  return {
    month: input.month,
    through: until.toISOString(),
    energy: { kwh: hours?.kwh ? new D(hours.kwh).toFixed(1) : null, perKwh: energy?.amount.toFixed(4) ?? null, pue: energy?.pue?.toFixed(2) ?? null },
    /** Kinds with no amount in force: the pages say where to set them (staff only). */
    unset: staff ? KINDS.filter((k) => !overheadAt(overheads, k, until.getTime() - 1)) : [],
    parts: parts.map((p) => ({
      part: p.part,
      rule: p.rule,
      total: staff ? p.total.toFixed(2) : null,
      platform: staff ? p.shares.get(PLATFORM)!.toFixed(2) : null,
      tenants: [...p.shares].filter(([id]) => shown(id)).map(([tenantId, amount]) => ({ tenantId, name: names.get(tenantId) ?? tenantId, amount: amount.toFixed(2) })),
    })),
  };
}

/** A dated cost beside GPU time, from an hour not yet over (hours already costed stay as costed). Audited. */
export async function setOverhead(ctx: ActorContext, input: SetOverheadInput) {
  if (input.effectiveFrom.getTime() < Math.floor(Date.now() / HOUR) * HOUR) throw new InvalidInputError("effectiveFrom", "a cost cannot change hours already over");
  return ctx.db.$transaction(async (tx) => {
    const row = await tx.costOverhead.create({
      data: { kind: input.kind, amount: input.amount, pue: "pue" in input ? input.pue : null, spread: "spread" in input ? input.spread : null, effectiveFrom: input.effectiveFrom, createdById: ctx.actor.userId },
    });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "cost.overhead.set", targetType: "cost_overhead", targetId: input.kind, after: row });
    return row;
  });
}

/** Each kind's amount in force now (null: not set), for the pricing panel; the energy one with its price per kWh after PUE. */
export async function currentOverheads({ db }: ActorContext) {
  const rows = await db.costOverhead.findMany({ orderBy: { effectiveFrom: "desc" } });
  const now = Date.now();
  return KINDS.map((kind) => {
    const r = overheadAt(rows, kind, now);
    return { kind, amount: r?.amount.toString() ?? null, pue: r?.pue?.toString() ?? null, spread: r?.spread ?? null, effectiveFrom: r?.effectiveFrom ?? null, facilityPerKwh: kind === "energy" ? (energyPrice(r)?.toFixed(4) ?? null) : null };
  });
}
