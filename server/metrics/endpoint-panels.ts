/**
 * The endpoint page's panels, defined once: the app's charts (endpoint-charts.ts) and the Grafana
 * export (grafana.ts) are both built from this list and the same PromQL builders.
 */
import { batchFillRows } from "./adapters.ts";
import { endpointQueries as q } from "./promql.ts";

export type PanelUnit = "req/s" | "ms" | "%" | "tok/s" | "requests";

export interface PanelTarget {
  /** PromQL for an endpoint slug and a rate window. */
  query: (slug: string, w: string) => string;
  /** Series name in the app, from the series' labels. */
  name: (labels: Record<string, string>) => string;
  /** Grafana's legendFormat for the same series. */
  legend: string;
  /** Multiplies values for display (seconds → ms, ratio → %). */
  scale?: number;
  /** A whole-matrix adapter instead of one series per label set. */
  adapt?: typeof batchFillRows;
}

export interface EndpointPanel {
  id: string;
  title: string;
  unit: PanelUnit;
  /** The same unit in Grafana's terms, for the raw (unscaled) values. */
  grafanaUnit: string;
  targets: PanelTarget[];
}

const pct = (p: number) => `P${Math.round(p * 100)}`;
const quantiles = (qs: number[], build: (slug: string, p: number, w: string) => string): PanelTarget[] =>
  qs.map((p) => ({ query: (slug, w) => build(slug, p, w), name: () => pct(p), legend: pct(p), scale: 1000 }));

export const ENDPOINT_PANELS: EndpointPanel[] = [
  { id: "rps", title: "Requests/s by version", unit: "req/s", grafanaUnit: "reqps", targets: [{ query: q.requestsByVersion, name: (l) => `v${l.version ?? "?"}`, legend: "v{{version}}" }] },
  { id: "latency", title: "Latency", unit: "ms", grafanaUnit: "s", targets: quantiles([0.5, 0.95, 0.99], q.latency) },
  { id: "ttft", title: "Time to first token", unit: "ms", grafanaUnit: "s", targets: quantiles([0.5, 0.99], q.ttft) },
  { id: "tpot", title: "Time per output token", unit: "ms", grafanaUnit: "s", targets: quantiles([0.5, 0.99], q.tpot) },
  { id: "errors", title: "Error rate", unit: "%", grafanaUnit: "percentunit", targets: [{ query: q.errorRate, name: () => "5xx", legend: "5xx", scale: 100 }] },
  { id: "tokens", title: "Input and output tokens/s", unit: "tok/s", grafanaUnit: "short", targets: [{ query: q.tokens, name: (l) => l.kind ?? "tokens", legend: "{{kind}}" }] },
  { id: "queue", title: "Queue depth (waiting requests)", unit: "requests", grafanaUnit: "short", targets: [{ query: (slug) => q.queueDepth(slug), name: () => "waiting", legend: "waiting" }] },
  { id: "kv", title: "KV-cache usage", unit: "%", grafanaUnit: "percentunit", targets: [{ query: (slug) => q.kvCache(slug), name: () => "KV cache", legend: "KV cache", scale: 100 }] },
  {
    id: "batch",
    title: "Batch fill (running / maximum batch)",
    unit: "%",
    // Grafana gets running sequences per replica, labelled with each one's maximum batch.
    grafanaUnit: "short",
    targets: [{ query: (slug) => q.runningByReplica(slug), name: () => "batch fill", legend: "{{kule_replica}} running of {{kule_max_num_seqs}}", adapt: batchFillRows }],
  },
];
