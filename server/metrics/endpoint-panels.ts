/**
 * The endpoint page's panels, defined once: the app's charts (endpoint-charts.ts) and the Grafana
 * export (grafana.ts) are both built from this list and the same PromQL builders.
 */
import { batchFillRows } from "./adapters.ts";
import { endpointQueries as q } from "./promql.ts";
import type { EngineMetrics } from "./exporters/engines.ts";
import type { ChartNote, EndpointChartId } from "./chart-keys.ts";

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
  /** Also the key of its title in the messages (metrics.chart.endpoint), the title's one owner. */
  id: EndpointChartId;
  unit: PanelUnit;
  /** The same unit in Grafana's terms, for the raw (unscaled) values. */
  grafanaUnit: string;
  targets: PanelTarget[];
  /** The engine metrics the panel reads; none: the gateway's, on every endpoint. */
  engine?: EngineMetrics;
  /** Why the panel stays empty for an endpoint of this engine, said on the chart instead of "no data yet". */
  emptyWhy?: Partial<Record<EngineMetrics, ChartNote["key"]>>;
  /** Shown only while a version of the endpoint takes shadow traffic (its queries cost nothing otherwise). */
  shadowOnly?: true;
}

const pct = (p: number) => `P${Math.round(p * 100)}`;
const quantiles = (qs: number[], build: (slug: string, p: number, w: string) => string): PanelTarget[] =>
  qs.map((p) => ({ query: (slug, w) => build(slug, p, w), name: () => pct(p), legend: pct(p), scale: 1000 }));

export const ENDPOINT_PANELS: EndpointPanel[] = [
  { id: "rps", unit: "req/s", grafanaUnit: "reqps", targets: [{ query: q.requestsByVersion, name: (l) => `v${l.version ?? "?"}`, legend: "v{{version}}" }] },
  { id: "latency", unit: "ms", grafanaUnit: "s", targets: quantiles([0.5, 0.95, 0.99], q.latency) },
  {
    id: "ttft",
   
    unit: "ms",
    grafanaUnit: "s",
    targets: quantiles([0.5, 0.99], q.ttft),
    emptyWhy: { triton: "tritonNoFirstToken" },
  },
  { id: "tpot", engine: "vllm", unit: "ms", grafanaUnit: "s", targets: quantiles([0.5, 0.99], q.tpot) },
  // What the gateway itself adds to each call, in production: the benchmark's figure, live.
  { id: "overhead", unit: "ms", grafanaUnit: "s", targets: quantiles([0.5, 0.99], q.overhead) },
  { id: "errors", unit: "%", grafanaUnit: "percentunit", targets: [{ query: q.errorRate, name: () => "5xx", legend: "5xx", scale: 100 }] },
  {
    id: "tokens",
   
    unit: "tok/s",
    grafanaUnit: "short",
    targets: [{ query: q.tokens, name: (l) => l.kind ?? "tokens", legend: "{{kind}}" }],
    emptyWhy: { triton: "tritonNoTokens" },
  },
  // The gateway's overload queue (server/gateway/overload): what waits, what was refused, and who got what share.
  { id: "overload-queue", unit: "requests", grafanaUnit: "short", targets: [{ query: (slug) => q.overloadQueue(slug), name: (l) => `${l.priority ?? "?"} · ${l.tenant ?? "?"}`, legend: "{{priority}} · {{tenant}}" }] },
  { id: "overload-shed", unit: "req/s", grafanaUnit: "reqps", targets: [{ query: q.overloadShed, name: (l) => l.reason ?? "?", legend: "{{reason}}" }] },
  { id: "overload-share", unit: "tok/s", grafanaUnit: "short", targets: [{ query: q.weightedShare, name: (l) => l.tenant ?? "?", legend: "{{tenant}}" }] },
  // vLLM endpoints: the engine's own view of each replica.
  { id: "queue", engine: "vllm", unit: "requests", grafanaUnit: "short", targets: [{ query: (slug) => q.queueDepth(slug), name: () => "waiting", legend: "waiting" }] },
  {
    id: "prefix-cache",
    engine: "vllm",
   
    unit: "%",
    grafanaUnit: "percentunit",
    targets: [{ query: q.prefixCacheHitRate, name: () => "hit rate", legend: "hit rate", scale: 100 }],
  },
  { id: "kv", engine: "vllm", unit: "%", grafanaUnit: "percentunit", targets: [{ query: (slug) => q.kvCache(slug), name: () => "KV cache", legend: "KV cache", scale: 100 }] },
  {
    id: "batch",
    engine: "vllm",
   
    unit: "%",
    // Grafana gets running sequences per replica, labelled with each one's maximum batch.
    grafanaUnit: "short",
    targets: [{ query: (slug) => q.runningByReplica(slug), name: () => "batch fill", legend: "{{kule_replica}} running of {{kule_max_num_seqs}}", adapt: batchFillRows }],
  },
  // Triton endpoints (Triton, and TensorRT-LLM, ONNX Runtime and OpenVINO through its backends).
  { id: "triton-pending", engine: "triton", unit: "requests", grafanaUnit: "short", targets: [{ query: (slug) => q.tritonPending(slug), name: () => "pending", legend: "pending" }] },
  {
    id: "triton-time",
    engine: "triton",
   
    unit: "ms",
    grafanaUnit: "µs",
    targets: (["queue", "compute_infer"] as const).map((phase) => {
      const what = phase === "queue" ? "queue" : "compute";
      return { query: (slug: string, w: string) => q.tritonTimePerRequest(slug, phase, w), name: (l: Record<string, string>) => `${what} v${l.kule_version ?? "?"}`, legend: `${what} v{{kule_version}}`, scale: 1e-3 };
    }),
  },
  {
    id: "triton-failures",
    engine: "triton",
   
    unit: "req/s",
    grafanaUnit: "reqps",
    // Before Triton 24.07 failures had no `reason`.
    targets: [{ query: q.tritonFailures, name: (l) => l.reason || "failed", legend: "{{reason}}" }],
  },
  // Shadow traffic: the candidate's copies beside the live versions' calls, at P99.
  {
    id: "shadow-latency",
    shadowOnly: true,
   
    unit: "ms",
    grafanaUnit: "s",
    targets: (["request_duration", "ttft"] as const).flatMap((m) => {
      const what = m === "ttft" ? "TTFT" : "latency";
      return [
        { query: (slug: string, w: string) => q.liveByVersion(slug, m, 0.99, w), name: (l: Record<string, string>) => `${what} live v${l.version ?? "?"}`, legend: `${what} live v{{version}}`, scale: 1000 },
        { query: (slug: string, w: string) => q.shadowByVersion(slug, m, 0.99, w), name: (l: Record<string, string>) => `${what} shadow v${l.version ?? "?"}`, legend: `${what} shadow v{{version}}`, scale: 1000 },
      ];
    }),
  },
  {
    id: "shadow-errors",
    shadowOnly: true,
   
    unit: "%",
    grafanaUnit: "percentunit",
    targets: [
      { query: q.errorRate, name: () => "live 5xx", legend: "live 5xx", scale: 100 },
      { query: q.shadowErrorRate, name: (l) => `shadow v${l.version ?? "?"} not 2xx`, legend: "shadow v{{version}} not 2xx", scale: 100 },
    ],
  },
];

/** The panels of an endpoint whose servers publish `engine`'s metrics, in page order; the shadow panels while it has a shadow version. */
export function panelsFor(engine: EngineMetrics, shadow = false): EndpointPanel[] {
  return ENDPOINT_PANELS.filter((p) => (!p.engine || p.engine === engine) && (!p.shadowOnly || shadow));
}
