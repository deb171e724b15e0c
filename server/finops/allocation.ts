import { Prisma } from "../db/generated/client.ts";

const D = Prisma.Decimal;
type Decimal = Prisma.Decimal;

/** Who pays what no tenant used: idle GPUs, endpoint hours without calls, weights on no endpoint. */
export const PLATFORM = "platform";

export type SpreadRule = "gpu_hours" | "tokens" | "even";

/**
 * Shares `total` out in whole kuruş in proportion to `weights`, by largest remainder (Hamilton):
 * every recipient gets the floor of its exact share, and the kuruş left over go one each to the
 * largest fractions (ties to the earlier key), so the shares add up to the rounded total exactly —
 * the bill a finance team reconciles, not a sum of rounded figures one kuruş off. With no weight
 * anywhere the whole goes to the platform.
 */
export function allocateKurus(total: Decimal, weights: Map<string, Decimal>): Map<string, Decimal> {
  const kurus = total.mul(100).toDecimalPlaces(0, D.ROUND_HALF_UP);
  const positive = [...weights].filter(([, w]) => w.gt(0));
  const sum = positive.reduce((s, [, w]) => s.add(w), new D(0));
  const out = new Map<string, Decimal>([...weights.keys()].map((k) => [k, new D(0)]));
  if (sum.isZero()) {
    out.set(PLATFORM, kurus.div(100));
    return out;
  }
  const quotas = positive.map(([key, w], i) => {
    const exact = kurus.mul(w).div(sum);
    const floor = exact.floor();
    return { key, i, floor, rest: exact.sub(floor) };
  });
  let left = kurus.sub(quotas.reduce((s, q) => s.add(q.floor), new D(0))).toNumber();
  const byRest = [...quotas].sort((a, b) => b.rest.cmp(a.rest) || a.i - b.i);
  const extra = new Set<string>();
  for (const q of byRest) {
    if (left <= 0) break;
    extra.add(q.key);
    left--;
  }
  for (const q of quotas) out.set(q.key, q.floor.add(extra.has(q.key) ? 1 : 0).div(100));
  return out;
}

export interface TenantUse {
  tenantId: string;
  /** Device hours of the endpoint-hours it used, by its share of their tokens (UsageDay.gpuHours). */
  gpuHours: Decimal;
  tokens: bigint;
  requests: number;
}

/**
 * The weights a monthly amount is spread by. By GPU-hours the device hours nobody used are the
 * platform's, so idle capacity carries its share of software and operations; by tokens or evenly
 * (every tenant that called in the month) it all falls on the tenants.
 */
export function spreadWeights(rule: SpreadRule, use: TenantUse[], idleGpuHours: Decimal): Map<string, Decimal> {
  const weights = new Map<string, Decimal>();
  for (const u of use) {
    const w = rule === "gpu_hours" ? u.gpuHours : rule === "tokens" ? new D(u.tokens.toString()) : new D(u.requests > 0 ? 1 : 0);
    weights.set(u.tenantId, w);
  }
  weights.set(PLATFORM, rule === "gpu_hours" ? D.max(0, idleGpuHours) : new D(0));
  return weights;
}

interface Dated {
  amount: Decimal;
  effectiveFrom: Date;
}

/**
 * A monthly amount for the part of the month from `from` to `until`, each span at the amount in
 * force then (a change mid-month counts from its hour); nothing before the first amount. The
 * running month so carries its cost to date, as its GPU time does.
 */
export function proratedMonthly(rates: Dated[], monthStart: Date, monthEnd: Date, until: Date): Decimal {
  const end = Math.min(monthEnd.getTime(), until.getTime());
  const month = monthEnd.getTime() - monthStart.getTime();
  const sorted = [...rates].sort((a, b) => a.effectiveFrom.getTime() - b.effectiveFrom.getTime());
  let total = new D(0);
  sorted.forEach((r, i) => {
    const from = Math.max(monthStart.getTime(), r.effectiveFrom.getTime());
    const to = Math.min(end, sorted[i + 1]?.effectiveFrom.getTime() ?? Infinity);
    if (to > from) total = total.add(r.amount.mul(to - from).div(month));
  });
  return total;
}

export const METERED = ["gpu", "energy", "storage"] as const;
export const MONTHLY = ["software", "operations"] as const;
export type MeteredPart = (typeof METERED)[number];
export type MonthlyPart = (typeof MONTHLY)[number];
export type CostPart = MeteredPart | MonthlyPart;

export interface BillInput {
  /** The month's metered totals (the hourly cost rows). */
  metered: Record<MeteredPart, Decimal>;
  /** Each tenant's attributed metered amounts (its daily roll-ups). */
  attributed: Map<string, Record<MeteredPart, Decimal>>;
  use: TenantUse[];
  /** Device hours no tenant's calls were attributed. */
  idleGpuHours: Decimal;
  monthly: Record<MonthlyPart, { amount: Decimal; spread: SpreadRule } | null>;
}

export interface BillPart {
  part: CostPart;
  /** How it was shared: measured (GPU time and energy as held, storage as deployed) or the admin's spread rule. */
  rule: "measured" | SpreadRule;
  total: Decimal;
  /** Per tenant id and PLATFORM, whole kuruş, adding up to `total`. */
  shares: Map<string, Decimal>;
}

/** The month's whole bill part by part, each shared out to the kuruş between the tenants and the platform. */
export function shareBill(input: BillInput): BillPart[] {
  const parts: BillPart[] = METERED.map((part) => {
    const weights = new Map<string, Decimal>();
    let attributed = new D(0);
    for (const [tenantId, a] of input.attributed) {
      weights.set(tenantId, a[part]);
      attributed = attributed.add(a[part]);
    }
    weights.set(PLATFORM, D.max(0, input.metered[part].sub(attributed)));
    return { part, rule: "measured" as const, total: round(input.metered[part]), shares: allocateKurus(input.metered[part], weights) };
  });
  for (const part of MONTHLY) {
    const m = input.monthly[part];
    if (!m) continue;
    parts.push({ part, rule: m.spread, total: round(m.amount), shares: allocateKurus(m.amount, spreadWeights(m.spread, input.use, input.idleGpuHours)) });
  }
  return parts;
}

const round = (v: Decimal) => v.toDecimalPlaces(2, D.ROUND_HALF_UP);
