import type { PrometheusClient, PromVector } from "../metrics/prometheus-client.ts";
import { labelValue } from "../metrics/promql.ts";
import type { Analysis, VersionStats } from "./machine.ts";

/**
 * The canary analysis' PromQL, per version of one endpoint over a window, from the gateway's
 * own metrics (what clients saw, including the gateway's retries and time on the wire).
 */
export const analysisQueries = {
  requests: (endpoint: string, w: number) => `sum by (version) (increase(kule_gateway_requests_total{endpoint=${labelValue(endpoint)}}[${w}s]))`,
  errors: (endpoint: string, w: number) => `sum by (version) (increase(kule_gateway_requests_total{endpoint=${labelValue(endpoint)},status=~"5.."}[${w}s]))`,
  p95: (endpoint: string, w: number) => `histogram_quantile(0.95, sum by (version, le) (rate(kule_gateway_request_duration_seconds_bucket{endpoint=${labelValue(endpoint)}}[${w}s])))`,
  ttftP95: (endpoint: string, w: number) => `histogram_quantile(0.95, sum by (version, le) (rate(kule_gateway_ttft_seconds_bucket{endpoint=${labelValue(endpoint)}}[${w}s])))`,
} as const;

function byVersion(v: PromVector): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of v) {
    const x = Number(s.value[1]);
    if (Number.isFinite(x)) out.set(s.metric.version ?? "", x);
  }
  return out;
}

export function statsFor(label: string, q: { requests: Map<string, number>; errors: Map<string, number>; p95: Map<string, number>; ttft: Map<string, number> }): VersionStats {
  const requests = q.requests.get(label) ?? 0;
  const errors = q.errors.get(label) ?? 0;
  const ms = (x: number | undefined) => (x === undefined ? null : x * 1000);
  return { requests, errorRate: requests > 0 ? errors / requests : 0, p95Ms: ms(q.p95.get(label)), ttftP95Ms: ms(q.ttft.get(label)) };
}

/** Canary vs stable over the last `windowSeconds`; throws MetricsUnavailableError when Prometheus can't answer. */
export async function prometheusAnalysis(prom: PrometheusClient, endpointSlug: string, canaryLabel: string, stableLabel: string | null, windowSeconds: number): Promise<Analysis> {
  const [requests, errors, p95, ttft] = await Promise.all([
    prom.query(analysisQueries.requests(endpointSlug, windowSeconds)),
    prom.query(analysisQueries.errors(endpointSlug, windowSeconds)),
    prom.query(analysisQueries.p95(endpointSlug, windowSeconds)),
    prom.query(analysisQueries.ttftP95(endpointSlug, windowSeconds)),
  ]).then((r) => r.map(byVersion));
  const q = { requests: requests!, errors: errors!, p95: p95!, ttft: ttft! };
  return { canary: statsFor(canaryLabel, q), stable: stableLabel ? statsFor(stableLabel, q) : null };
}
