import { Prisma, type PrismaClient } from "../db/generated/client.ts";
import { addBuckets } from "./histogram.ts";

const D = Prisma.Decimal;
const DAY = 86_400_000;

export const dayOf = (t: Date | number) => new Date(Math.floor(new Date(t).getTime() / DAY) * DAY);

/**
 * Recomputes one UTC day of UsageDay from that day's hourly roll-ups and infrastructure cost:
 * versions folded together, and each endpoint-hour's cost split between the tenants (and keys)
 * that used it by their share of its tokens, or of its requests when it counts no tokens.
 * Endpoint-hours with cost and no calls stay unattributed: the cost pages show them as idle.
 */
export async function rollupDay(db: PrismaClient, day: Date): Promise<number> {
  const from = dayOf(day);
  const to = new Date(from.getTime() + DAY);
  const [hours, costs] = await Promise.all([
    db.usageHour.findMany({ where: { hour: { gte: from, lt: to } } }),
    db.costHour.findMany({ where: { hour: { gte: from, lt: to }, subject: { not: "idle" } } }),
  ]);
  const costOf = new Map(costs.map((c) => [`${c.hour.getTime()}|${c.subject}`, c.cost]));
  const totals = new Map<string, { tokens: bigint; requests: number }>();
  for (const h of hours) {
    const k = `${h.hour.getTime()}|${h.endpointId}`;
    const t = totals.get(k) ?? { tokens: 0n, requests: 0 };
    totals.set(k, { tokens: t.tokens + h.promptTokens + h.completionTokens, requests: t.requests + h.requests });
  }
  type Row = Omit<Prisma.UsageDayCreateManyInput, "charged" | "infraCost"> & { charged: Prisma.Decimal; infraCost: Prisma.Decimal; latencyBuckets: number[]; ttftBuckets: number[] };
  const rows = new Map<string, Row>();
  for (const h of hours) {
    const k = `${h.tenantId}|${h.apiKeyId}|${h.endpointId}`;
    const r: Row = rows.get(k) ?? {
      day: from,
      tenantId: h.tenantId,
      apiKeyId: h.apiKeyId,
      endpointId: h.endpointId,
      requests: 0,
      errors: 0,
      promptTokens: 0n,
      completionTokens: 0n,
      charged: new D(0),
      infraCost: new D(0),
      latencySumMs: 0n,
      ttftSumMs: 0n,
      ttftCount: 0,
      latencyBuckets: [],
      ttftBuckets: [],
    };
    const hk = `${h.hour.getTime()}|${h.endpointId}`;
    const cost = costOf.get(hk);
    if (cost) {
      const t = totals.get(hk)!;
      const share = t.tokens > 0n ? new D((h.promptTokens + h.completionTokens).toString()).div(t.tokens.toString()) : t.requests > 0 ? new D(h.requests).div(t.requests) : new D(0);
      r.infraCost = r.infraCost.add(new D(cost).mul(share));
    }
    r.requests = (r.requests as number) + h.requests;
    r.errors = (r.errors as number) + h.errors;
    r.promptTokens = (r.promptTokens as bigint) + h.promptTokens;
    r.completionTokens = (r.completionTokens as bigint) + h.completionTokens;
    r.charged = r.charged.add(h.charged);
    r.latencySumMs = (r.latencySumMs as bigint) + h.latencySumMs;
    r.ttftSumMs = (r.ttftSumMs as bigint) + h.ttftSumMs;
    r.ttftCount = (r.ttftCount as number) + h.ttftCount;
    r.latencyBuckets = addBuckets(r.latencyBuckets, h.latencyBuckets);
    r.ttftBuckets = addBuckets(r.ttftBuckets, h.ttftBuckets);
    rows.set(k, r);
  }
  await db.$transaction([db.usageDay.deleteMany({ where: { day: from } }), db.usageDay.createMany({ data: [...rows.values()].map((r) => ({ ...r, infraCost: r.infraCost.toDecimalPlaces(12) })) })]);
  return rows.size;
}

/** Rolls up the days of the given hours (each day once). */
export async function refreshDays(db: PrismaClient, hours: Date[]): Promise<number> {
  const days = [...new Set(hours.map((h) => dayOf(h).getTime()))].sort();
  for (const d of days) await rollupDay(db, new Date(d));
  return days.length;
}
