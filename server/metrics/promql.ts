/**
 * Named, typed PromQL: the only queries the app sends to Prometheus are built here, from values
 * that are escaped, so no user text becomes PromQL.
 */
export function labelValue(v: string): string {
  return `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

const gw = (endpoint: string) => `endpoint=${labelValue(endpoint)}`;
/** An engine's series by the target label Kule's service discovery attaches (never by `job`). */
const ep = (endpoint: string) => `kule_endpoint=${labelValue(endpoint)}`;

/** Window for rates: wide enough to hold several 5 s scrapes, narrow enough to follow changes. */
export function rateWindow(stepSeconds: number): string {
  return `${Math.max(30, stepSeconds * 2)}s`;
}

export const endpointQueries = {
  /** Requests/s by version, as the gateway served them. */
  requestsByVersion: (endpoint: string, w: string) => `sum by (version) (rate(kule_gateway_requests_total{${gw(endpoint)}}[${w}]))`,
  /** Latency percentile over all versions, from the gateway's histogram (seconds). */
  latency: (endpoint: string, q: number, w: string) => `histogram_quantile(${q}, sum by (le) (rate(kule_gateway_request_duration_seconds_bucket{${gw(endpoint)}}[${w}])))`,
  /** Time to first token percentile, measured at the gateway (seconds). */
  ttft: (endpoint: string, q: number, w: string) => `histogram_quantile(${q}, sum by (le) (rate(kule_gateway_ttft_seconds_bucket{${gw(endpoint)}}[${w}])))`,
  /** The gateway's own time per call (its total minus the replica's) percentile, seconds. */
  overhead: (endpoint: string, q: number, w: string) => `histogram_quantile(${q}, sum by (le) (rate(kule_gateway_overhead_seconds_bucket{${gw(endpoint)}}[${w}])))`,
  /** Share of requests answered 5xx: zero while traffic flows without errors, a gap when there is no traffic. */
  errorRate: (endpoint: string, w: string) =>
    `(sum(rate(kule_gateway_requests_total{${gw(endpoint)},status=~"5.."}[${w}])) or vector(0)) / sum(rate(kule_gateway_requests_total{${gw(endpoint)}}[${w}]))`,
  /** Input and output tokens/s. */
  tokens: (endpoint: string, w: string) => `sum by (kind) (rate(kule_gateway_tokens_total{${gw(endpoint)}}[${w}]))`,
  /** Calls held in the gateway's overload queue, by priority class and tenant (server/gateway/overload). */
  overloadQueue: (endpoint: string) => `sum by (priority, tenant) (kule_gateway_queue_depth{${gw(endpoint)}})`,
  /** Calls the overload queue refused per second, by reason. */
  overloadShed: (endpoint: string, w: string) => `sum by (reason) (rate(kule_gateway_shed_total{${gw(endpoint)}}[${w}]))`,
  /** Each tenant's tokens/s divided by its fair-share weight: equal lines mean each got its weight's share. */
  weightedShare: (endpoint: string, w: string) => `sum by (tenant) (rate(kule_gateway_weighted_tokens_total{${gw(endpoint)}}[${w}]))`,
  /** Requests waiting in the endpoint's vLLM engines' queues. */
  queueDepth: (endpoint: string) => `sum(vllm:num_requests_waiting{${ep(endpoint)}})`,
  /**
   * Time per output token (inter-token latency) percentile across the endpoint's vLLM replicas
   * (seconds). vLLM ≥ 0.10.2 observes every interval as `inter_token_latency_seconds`; before
   * 0.13 the same intervals were `time_per_output_token_seconds` (same buckets). The `or` is per
   * replica, before the sum: a replica with both counts once, one with only the old name counts.
   */
  tpot: (endpoint: string, q: number, w: string) =>
    `histogram_quantile(${q}, sum by (le) (rate(vllm:inter_token_latency_seconds_bucket{${ep(endpoint)}}[${w}]) or rate(vllm:time_per_output_token_seconds_bucket{${ep(endpoint)}}[${w}])))`,
  /** Running sequences per replica, keyed by the replica's maximum batch (a target label of Kule's discovery). */
  runningByReplica: (endpoint: string) => `sum by (kule_replica, kule_max_num_seqs) (vllm:num_requests_running{${ep(endpoint)}})`,
  /** Mean KV-cache usage across the endpoint's vLLM replicas (0–1); `gpu_cache_usage_perc` before 0.9.2 (removed in 0.12). */
  kvCache: (endpoint: string) => `avg(vllm:kv_cache_usage_perc{${ep(endpoint)}} or vllm:gpu_cache_usage_perc{${ep(endpoint)}})`,
  /**
   * Share of prompt tokens the endpoint's vLLM replicas served from their prefix caches (0–1).
   * vLLM V1 counts `prefix_cache_queries`/`hits` in tokens; releases before 0.11 named them
   * `gpu_prefix_cache_*` (the `or` is per replica, so one with both names counts once).
   */
  prefixCacheHitRate: (endpoint: string, w: string) =>
    `sum(rate(vllm:prefix_cache_hits_total{${ep(endpoint)}}[${w}]) or rate(vllm:gpu_prefix_cache_hits_total{${ep(endpoint)}}[${w}])) / sum(rate(vllm:prefix_cache_queries_total{${ep(endpoint)}}[${w}]) or rate(vllm:gpu_prefix_cache_queries_total{${ep(endpoint)}}[${w}]))`,
  /** A percentile of the live calls' `metric` (latency or TTFT histogram) per version, seconds. */
  liveByVersion: (endpoint: string, metric: "request_duration" | "ttft", q: number, w: string) => `histogram_quantile(${q}, sum by (le, version) (rate(kule_gateway_${metric}_seconds_bucket{${gw(endpoint)}}[${w}])))`,
  /** The same percentile of the shadow copies (server/gateway/shadow.ts) per candidate version, seconds. */
  shadowByVersion: (endpoint: string, metric: "request_duration" | "ttft", q: number, w: string) =>
    `histogram_quantile(${q}, sum by (le, version) (rate(kule_gateway_shadow_${metric}_seconds_bucket{${gw(endpoint)}}[${w}])))`,
  /** Share of shadow copies per candidate version that got no 2xx answer. */
  shadowErrorRate: (endpoint: string, w: string) =>
    `(sum by (version) (rate(kule_gateway_shadow_requests_total{${gw(endpoint)},status!~"2.."}[${w}])) or (0 * sum by (version) (rate(kule_gateway_shadow_requests_total{${gw(endpoint)}}[${w}])))) / sum by (version) (rate(kule_gateway_shadow_requests_total{${gw(endpoint)}}[${w}]))`,
  /** Requests Triton holds for its scheduler (enqueued, not yet started by a backend). */
  tritonPending: (endpoint: string) => `sum(nv_inference_pending_request_count{${ep(endpoint)}})`,
  /** Triton's failed requests/s by reason (REJECTED, CANCELED, BACKEND, OTHER; no `reason` before 24.07). */
  tritonFailures: (endpoint: string, w: string) => `sum by (reason) (rate(nv_inference_request_failure{${ep(endpoint)}}[${w}]))`,
  /**
   * Microseconds per successful request Triton spent queued (`queue`) or computing (`compute_infer`),
   * per Kule version. Sums drop Triton's own `version` and `gpu_uuid` series splits.
   */
  tritonTimePerRequest: (endpoint: string, phase: "queue" | "compute_infer", w: string) =>
    `sum by (kule_version) (rate(nv_inference_${phase}_duration_us{${ep(endpoint)}}[${w}])) / sum by (kule_version) (rate(nv_inference_request_success{${ep(endpoint)}}[${w}]))`,
} as const;

/** The live load and latency of an endpoint, for the capacity planner's predicted-against-measured check (server/planner/live-check.ts). */
export const liveLoadQueries = {
  requests: (endpoint: string, w: string) => `sum(rate(kule_gateway_requests_total{${gw(endpoint)},status=~"2.."}[${w}]))`,
  /** Mean sequences each vLLM replica of the endpoint runs at once: the batch its steps serve. */
  batch: (endpoint: string) => `avg(vllm:num_requests_running{${ep(endpoint)}})`,
} as const;

const tn = (tenant: string) => `tenant=${labelValue(tenant)}`;

/**
 * A tenant's own traffic at the gateway. Every query carries the tenant label, and the caller
 * passes the tenant of the signed-in user, never one from the request.
 */
export const tenantQueries = {
  requestsByEndpoint: (tenant: string, w: string) => `sum by (endpoint) (rate(kule_gateway_requests_total{${tn(tenant)}}[${w}]))`,
  latency: (tenant: string, q: number, w: string) => `histogram_quantile(${q}, sum by (le) (rate(kule_gateway_request_duration_seconds_bucket{${tn(tenant)}}[${w}])))`,
  ttft: (tenant: string, q: number, w: string) => `histogram_quantile(${q}, sum by (le) (rate(kule_gateway_ttft_seconds_bucket{${tn(tenant)}}[${w}])))`,
  errorRate: (tenant: string, w: string) =>
    `(sum(rate(kule_gateway_requests_total{${tn(tenant)},status=~"5.."}[${w}])) or vector(0)) / sum(rate(kule_gateway_requests_total{${tn(tenant)}}[${w}]))`,
  tokens: (tenant: string, w: string) => `sum by (kind) (rate(kule_gateway_tokens_total{${tn(tenant)}}[${w}]))`,
  /** The tenant's calls held in the gateway's overload queue, by endpoint. */
  queued: (tenant: string) => `sum by (endpoint) (kule_gateway_queue_depth{${tn(tenant)}})`,
  /** The tenant's calls refused under overload per second, by reason. */
  shed: (tenant: string, w: string) => `sum by (reason) (rate(kule_gateway_shed_total{${tn(tenant)}}[${w}]))`,
} as const;

export const RANGES = { "15m": 15 * 60, "1h": 3600, "6h": 6 * 3600, "24h": 24 * 3600, "7d": 7 * 24 * 3600 } as const;
export type RangeName = keyof typeof RANGES;

/** About 120 points per chart, on a step that is a whole number of seconds (at least the scrape interval). */
export function stepFor(range: RangeName): number {
  return Math.max(5, Math.round(RANGES[range] / 120));
}

const ver = (versionId: string) => `kule_version_id=${labelValue(versionId)}`;

/** The autoscaler's signals for one endpoint version, from its replicas' engines (server/autoscale/). */
export const autoscaleQueries = {
  waiting: (versionId: string) => `sum(vllm:num_requests_waiting{${ver(versionId)}})`,
  inFlight: (versionId: string) => `sum(vllm:num_requests_running{${ver(versionId)}}) + sum(vllm:num_requests_waiting{${ver(versionId)}})`,
  kvCache: (versionId: string) => `avg(vllm:kv_cache_usage_perc{${ver(versionId)}} or vllm:gpu_cache_usage_perc{${ver(versionId)}})`,
} as const;
