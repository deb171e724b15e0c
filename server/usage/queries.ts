import { Prisma, type PrismaClient } from "../db/generated/client.ts";
import type { ActorContext } from "../auth/actor.ts";
import { tenantScope } from "../auth/scope.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import { addBuckets, quantileMs } from "./histogram.ts";
import { spentThisMonth } from "./spend.ts";
import { monthForecast, RUN_RATE_HOURS } from "./forecast.ts";
import { refusalsByLimit } from "./refusals.ts";
import { translatorFor } from "../shared/i18n/translator.ts";
import type { Messages } from "../shared/i18n/messages.ts";
import { csvLine, type CsvCell } from "../shared/csv.ts";
import type { InvoiceInput, RangeInput, TenantUsageInput } from "./schemas.ts";

const D = Prisma.Decimal;
const HOUR = 3_600_000;

/** The tenant a usage view is about (server/auth/scope.ts): a tenant user's own; staff must name one. */
export async function usageTenant({ db, actor }: ActorContext, requested: string | undefined) {
  const id = tenantScope(actor, requested);
  if (!id) throw new InvalidInputError("tenantId", "choose a tenant");
  const tenant = await db.tenant.findUnique({ where: { id }, include: { pricePlan: true } });
  if (!tenant) throw new NotFoundError("Tenant");
  return tenant;
}

const since = (days: number) => new Date(Math.floor(Date.now() / HOUR) * HOUR - (days * 24 - 1) * HOUR);
const dayStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
const money = (d: Prisma.Decimal | string | null) => new D(d ?? 0).toFixed(2);
const per1M = (amount: Prisma.Decimal, tokens: bigint | number) => (Number(tokens) > 0 ? amount.mul(1_000_000).div(Number(tokens)).toFixed(2) : null);

/**
 * A tenant's usage over `days`: a time series (hourly up to a week, daily beyond) split by
 * endpoint, key, model or request class; totals; cost by day; and a table per endpoint with its SLA as served.
 */
export async function tenantUsage(ctx: ActorContext, input: TenantUsageInput) {
  const { db } = ctx;
  const tenant = await usageTenant(ctx, input.tenantId);
  const from = since(input.days);
  const bucket = input.days <= 7 ? "hour" : "day";
  // Hourly roll-ups for a day or a week; the daily ones beyond (a few rows per tenant and day).
  const [rows, endpoints, keys] = await Promise.all([
    bucket === "hour"
      ? db.usageHour.findMany({ where: { tenantId: tenant.id, hour: { gte: from } }, orderBy: { hour: "asc" } }).then((rs) => rs.map((r) => ({ ...r, t: r.hour })))
      : db.usageDay.findMany({ where: { tenantId: tenant.id, day: { gte: dayStart(from) } }, orderBy: { day: "asc" } }).then((rs) => rs.map((r) => ({ ...r, t: r.day }))),
    db.endpoint.findMany({ select: { id: true, name: true, slug: true, sloAvailabilityPct: true, sloP99LatencyMs: true, sloTtftMs: true, model: { select: { name: true } } } }),
    db.apiKey.findMany({ where: { tenantId: tenant.id }, select: { id: true, name: true, prefix: true } }),
  ]);
  const endpointById = new Map(endpoints.map((e) => [e.id, e]));
  const keyById = new Map(keys.map((k) => [k.id, k]));
  // Calls refused before routing (unknown model, a limit) have no endpoint, but they count.
  const unrouted = "refused before routing";
  const labelOf = (r: (typeof rows)[number]) =>
    input.by === "class"
      ? r.requestClass || "no class"
      : input.by === "key"
      ? (keyById.get(r.apiKeyId)?.name ?? "no key")
      : input.by === "model"
        ? (endpointById.get(r.endpointId)?.model.name ?? unrouted)
        : (endpointById.get(r.endpointId)?.name ?? unrouted);

  const series = new Map<number, { t: number; values: Record<string, { requests: number; input: number; output: number }> }>();
  const costByDay = new Map<string, Prisma.Decimal>();
  // What each label of the split (endpoint, key, model or request class) was charged over the period.
  const costByLabel = new Map<string, { requests: number; charged: Prisma.Decimal }>();
  const perEndpoint = new Map<string, { requests: number; errors: number; input: bigint; output: bigint; charged: Prisma.Decimal; latency: number[]; ttft: number[]; ttftSum: bigint; ttftCount: number }>();
  let total = { requests: 0, errors: 0, input: 0n, output: 0n, charged: new D(0) };
  for (const r of rows) {
    const t = r.t.getTime();
    const point = series.get(t) ?? series.set(t, { t, values: {} }).get(t)!;
    const label = labelOf(r);
    const v = (point.values[label] ??= { requests: 0, input: 0, output: 0 });
    const c = costByLabel.get(label) ?? { requests: 0, charged: new D(0) };
    costByLabel.set(label, { requests: c.requests + r.requests, charged: c.charged.add(r.charged) });
    v.requests += r.requests;
    v.input += Number(r.promptTokens);
    v.output += Number(r.completionTokens);
    const day = r.t.toISOString().slice(0, 10);
    costByDay.set(day, (costByDay.get(day) ?? new D(0)).add(r.charged));
    const e = perEndpoint.get(r.endpointId) ?? { requests: 0, errors: 0, input: 0n, output: 0n, charged: new D(0), latency: [], ttft: [], ttftSum: 0n, ttftCount: 0 };
    e.requests += r.requests;
    e.errors += r.errors;
    e.input += r.promptTokens;
    e.output += r.completionTokens;
    e.charged = e.charged.add(r.charged);
    e.latency = addBuckets(e.latency, r.latencyBuckets);
    e.ttft = addBuckets(e.ttft, r.ttftBuckets);
    e.ttftSum += r.ttftSumMs;
    e.ttftCount += r.ttftCount;
    perEndpoint.set(r.endpointId, e);
    total = { requests: total.requests + r.requests, errors: total.errors + r.errors, input: total.input + r.promptTokens, output: total.output + r.completionTokens, charged: total.charged.add(r.charged) };
  }
  const currency = tenant.pricePlan?.currency ?? "TRY";
  return {
    tenant: { id: tenant.id, name: tenant.name, slug: tenant.slug, kvkk: tenant.kvkk, plan: tenant.pricePlan?.name ?? null, currency },
    from,
    bucket,
    series: [...series.values()],
    seriesKeys: [...new Set(rows.map(labelOf))].sort(),
    totals: { requests: total.requests, errors: total.errors, inputTokens: Number(total.input), outputTokens: Number(total.output), charged: money(total.charged), costPer1MTokens: per1M(total.charged, total.input + total.output) },
    costByDay: [...costByDay].map(([day, amount]) => ({ day, amount: money(amount) })),
    costBySplit: [...costByLabel].sort(([a], [b]) => a.localeCompare(b)).map(([label, c]) => ({ label, requests: c.requests, charged: money(c.charged) })),
    endpoints: [...perEndpoint].map(([id, e]) => {
      const ep = endpointById.get(id);
      const availability = e.requests ? (1 - e.errors / e.requests) * 100 : null;
      const p99 = quantileMs(e.latency, 0.99);
      const ttftP95 = quantileMs(e.ttft, 0.95);
      return {
        endpointId: id,
        name: ep?.name ?? (id ? "(deleted endpoint)" : unrouted),
        requests: e.requests,
        inputTokens: Number(e.input),
        outputTokens: Number(e.output),
        charged: money(e.charged),
        costPer1MTokens: per1M(e.charged, e.input + e.output),
        sla: {
          p50Ms: quantileMs(e.latency, 0.5),
          p95Ms: quantileMs(e.latency, 0.95),
          p99Ms: p99,
          ttftAvgMs: e.ttftCount ? Number(e.ttftSum) / e.ttftCount : null,
          ttftP95Ms: ttftP95,
          errorRatePct: e.requests ? (e.errors / e.requests) * 100 : null,
          availabilityPct: availability,
          slo: ep ? { availabilityPct: Number(ep.sloAvailabilityPct), p99LatencyMs: ep.sloP99LatencyMs, ttftMs: ep.sloTtftMs } : null,
          met: ep && availability !== null ? availability >= Number(ep.sloAvailabilityPct) && (p99 === null || p99 <= ep.sloP99LatencyMs) && (ep.sloTtftMs === null || ttftP95 === null || ttftP95 <= ep.sloTtftMs) : null,
        },
      };
    }),
    budget: await budgetStatus(db, tenant.id),
    refusals: await refusalsByLimit(db, tenant.id, from),
  };
}

/** This month's charges against the budget, with the alert level the app shows (80% and 100%). */
export async function budgetStatus(db: PrismaClient, tenantId: string) {
  const tenant = await db.tenant.findUniqueOrThrow({ where: { id: tenantId }, include: { pricePlan: { select: { currency: true } } } });
  const now = new Date();
  const [spent, [recent]] = await Promise.all([
    spentThisMonth(db, [tenantId]),
    db.$queryRaw<{ charged: Prisma.Decimal | null; first: Date | null }[]>`
      SELECT sum(charged) AS charged, min(hour) AS first FROM "UsageHour" WHERE "tenantId" = ${tenantId} AND hour >= ${new Date(now.getTime() - RUN_RATE_HOURS * HOUR)}`,
  ]);
  const s = spent.get(tenantId)!;
  const budget = tenant.monthlyBudget ? new D(tenant.monthlyBudget) : null;
  // The run rate over the last week, or since the tenant's first call if that is later (an hour at least).
  const recentHours = recent?.first ? Math.max(1, (now.getTime() - recent.first.getTime()) / HOUR) : 0;
  const outlook = monthForecast({ spent: s, recentCharged: new D(recent?.charged ?? 0), recentHours, budget, now });
  const pct = budget && budget.gt(0) ? s.div(budget).mul(100).toNumber() : null;
  return {
    currency: tenant.pricePlan?.currency ?? "TRY",
    spent: money(s),
    budget: budget ? money(budget) : null,
    pct,
    level: pct === null ? null : pct >= 100 ? ("exceeded" as const) : pct >= 80 ? ("warning" as const) : ("ok" as const),
    hardCap: tenant.budgetHardCap,
    blocked: tenant.budgetBlockedAt !== null,
    /** The platform's credit limit (admins'), apart from the tenant's own budget. */
    creditLimit: tenant.creditLimit ? money(tenant.creditLimit) : null,
    creditBlocked: tenant.creditBlockedAt !== null,
    /** The month's end at the last week's run rate, and when that rate reaches the budget (server/usage/forecast.ts). */
    forecast: money(outlook.forecast),
    budgetReachedAt: outlook.budgetReachedAt,
  };
}

/** Invoice lines of a month: one per endpoint, CSV (UTF-8 with BOM so Excel shows Turkish letters). */
export async function invoiceCsv(ctx: ActorContext, input: InvoiceInput) {
  const { db } = ctx;
  const tenant = await usageTenant(ctx, input.tenantId);
  const [y, m] = input.month.split("-").map(Number) as [number, number];
  const from = new Date(Date.UTC(y, m - 1, 1));
  const to = new Date(Date.UTC(y, m, 1));
  const lines = await db.$queryRaw<{ endpoint: string; model: string; requests: bigint; input: bigint; output: bigint; charged: Prisma.Decimal }[]>`
    SELECT e.name AS endpoint, mo.name AS model, sum(u.requests)::bigint AS requests, sum(u."promptTokens")::bigint AS input, sum(u."completionTokens")::bigint AS output, sum(u.charged) AS charged
      FROM "UsageHour" u JOIN "Endpoint" e ON e.id = u."endpointId" JOIN "Model" mo ON mo.id = e."modelId"
     WHERE u."tenantId" = ${tenant.id} AND u.hour >= ${from} AND u.hour < ${to}
     GROUP BY 1, 2 ORDER BY 1`;
  const currency = tenant.pricePlan?.currency ?? "TRY";
  const t = translatorFor(input.locale ?? "en");
  const head = (k: keyof Messages["exportFiles"]["invoice"]) => t(`exportFiles.invoice.${k}`, { currency });
  // Amounts stay as stored (a point, two decimals): the file is data; only its heads are in the reader's language.
  // Names are text, never formulas (csvLine); the figures are written as numbers.
  const rows: CsvCell[][] = [[head("tenant"), head("month"), head("endpoint"), head("model"), head("requests"), head("inputTokens"), head("outputTokens"), head("amount")]];
  let total = new D(0);
  for (const l of lines) {
    rows.push([tenant.name, input.month, l.endpoint, l.model, { number: l.requests }, { number: l.input }, { number: l.output }, { number: money(l.charged) }]);
    total = total.add(l.charged);
  }
  rows.push([tenant.name, input.month, head("total"), "", "", "", "", { number: money(total) }]);
  const csv = "\uFEFF" + rows.map(csvLine).join("\r\n") + "\r\n";
  return { filename: `kule-invoice-${tenant.slug}-${input.month}.csv`, csv, total: money(total), currency };
}

/**
 * All tenants ranked by what they were charged, with the infrastructure cost of what they used:
 * each endpoint-hour's cost split between its tenants by their share of its tokens (of its
 * requests when it counts no tokens).
 */
export async function tenantRanking({ db }: ActorContext, { days }: RangeInput) {
  const from = dayStart(since(days));
  const rows = await db.$queryRaw<{ tenantId: string; name: string; slug: string; requests: bigint; tokens: bigint; charged: Prisma.Decimal; infra: Prisma.Decimal }[]>`
    SELECT u."tenantId", t.name, t.slug, sum(u.requests)::bigint AS requests, sum(u."promptTokens" + u."completionTokens")::bigint AS tokens, sum(u.charged) AS charged, sum(u."infraCost") AS infra
      FROM "UsageDay" u JOIN "Tenant" t ON t.id = u."tenantId"
     WHERE u.day >= ${from}
     GROUP BY 1, 2, 3 ORDER BY charged DESC`;
  return rows.map((r) => {
    const infra = new D(r.infra ?? 0);
    return { tenantId: r.tenantId, name: r.name, slug: r.slug, requests: Number(r.requests), tokens: Number(r.tokens), charged: money(r.charged), infraCost: money(infra), margin: money(new D(r.charged).sub(infra)) };
  });
}

/**
 * Revenue against running cost per endpoint: what it charged, what its replicas cost, the real
 * cost per 1M tokens beside the price, and the margin; plus the cost of capacity nobody used —
 * idle devices, and endpoint hours with replicas up but no calls.
 */
export async function endpointEconomics({ db }: ActorContext, { days }: RangeInput) {
  const from = since(days);
  const [usage, costs, endpoints] = await Promise.all([
    db.$queryRaw<{ endpointId: string; requests: bigint; tokens: bigint; charged: Prisma.Decimal; attributed: Prisma.Decimal }[]>`
      SELECT "endpointId", sum(requests)::bigint AS requests, sum("promptTokens" + "completionTokens")::bigint AS tokens, sum(charged) AS charged, sum("infraCost") AS attributed
        FROM "UsageDay" WHERE day >= ${dayStart(from)} GROUP BY 1`,
    db.$queryRaw<{ subject: string; cost: Prisma.Decimal; deviceHours: Prisma.Decimal }[]>`
      SELECT c.subject, sum(c.cost) AS cost, sum(c."deviceHours") AS "deviceHours"
        FROM "CostHour" c WHERE c.hour >= ${dayStart(from)} GROUP BY 1`,
    db.endpoint.findMany({ select: { id: true, name: true, slug: true } }),
  ]);
  const costBy = new Map(costs.map((c) => [c.subject, c]));
  const idle = costBy.get("idle");
  let unusedEndpointCost = new D(0);
  const rows = endpoints.map((e) => {
    const u = usage.find((x) => x.endpointId === e.id);
    const c = costBy.get(e.id);
    const revenue = new D(u?.charged ?? 0);
    const cost = new D(c?.cost ?? 0);
    // What its tenants were not attributed: hours its replicas were up with no calls.
    unusedEndpointCost = unusedEndpointCost.add(D.max(0, cost.sub(u?.attributed ?? 0)));
    const tokens = u ? u.tokens : 0n;
    return {
      endpointId: e.id,
      name: e.name,
      requests: Number(u?.requests ?? 0),
      tokens: Number(tokens),
      gpuHours: new D(c?.deviceHours ?? 0).toFixed(2),
      revenue: money(revenue),
      infraCost: money(cost),
      pricePer1MTokens: per1M(revenue, tokens),
      costPer1MTokens: per1M(cost, tokens),
      margin: money(revenue.sub(cost)),
      marginPct: revenue.gt(0) ? revenue.sub(cost).div(revenue).mul(100).toNumber() : null,
    };
  });
  return {
    endpoints: rows.sort((a, b) => Number(b.revenue) - Number(a.revenue)),
    idle: { devicesCost: money(idle?.cost ?? null), deviceHours: new D(idle?.deviceHours ?? 0).toFixed(2), unusedEndpointCost: money(unusedEndpointCost) },
  };
}
