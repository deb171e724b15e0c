import type { PrismaClient } from "../db/generated/client.ts";
import type { Actor } from "../auth/actor.ts";
import { ForbiddenError } from "../errors.ts";
import { tenantQueries as q, type RangeName } from "./promql.ts";
import { type PrometheusClient, isMetricsUnavailable } from "./prometheus-client.ts";
import { rangeCharts } from "./range-charts.ts";
import type { TenantChartId } from "./chart-keys.ts";

/**
 * A tenant user's own usage and latency at the gateway. The tenant comes from the signed-in
 * actor alone: the input has no tenant field, so no request can point it at another tenant.
 */
export async function tenantCharts({ db, prometheus, actor }: { db: PrismaClient; prometheus: PrometheusClient; actor: Actor }, input: { range: RangeName; now?: number }) {
  if (!actor.tenantId) throw new ForbiddenError("Only a tenant's users have tenant metrics.");
  const tenant = await db.tenant.findUniqueOrThrow({ where: { id: actor.tenantId }, select: { slug: true } });
  const { chart, w, step } = rangeCharts(prometheus, input.range, input.now);
  const t = tenant.slug;
  const pcts = (build: (t: string, p: number, w: string) => string) => [0.5, 0.95, 0.99].map((p) => ({ query: build(t, p, w), name: () => `P${Math.round(p * 100)}`, scale: 1000 }));
  try {
    const charts = await Promise.all([
      chart("rps" satisfies TenantChartId, "req/s", [{ query: q.requestsByEndpoint(t, w), name: (l) => l.endpoint ?? "?" }]),
      chart("latency" satisfies TenantChartId, "ms", pcts(q.latency)),
      chart("ttft" satisfies TenantChartId, "ms", pcts(q.ttft)),
      chart("errors" satisfies TenantChartId, "%", [{ query: q.errorRate(t, w), name: () => "5xx", scale: 100 }]),
      chart("tokens" satisfies TenantChartId, "tok/s", [{ query: q.tokens(t, w), name: (l) => l.kind ?? "tokens" }]),
      chart("queued" satisfies TenantChartId, "requests", [{ query: q.queued(t), name: (l) => l.endpoint ?? "?" }]),
      chart("shed" satisfies TenantChartId, "req/s", [{ query: q.shed(t, w), name: (l) => l.reason ?? "?" }]),
    ]);
    return { available: true as const, range: input.range, step, charts };
  } catch (e) {
    if (isMetricsUnavailable(e)) return { available: false as const, reason: e.why };
    throw e;
  }
}
