import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { BatchingEngine, SequenceResult } from "./engine.ts";
import { vllmHasLegacyNames, type VllmVersion } from "../../metrics/exporters/versions.ts";

// vLLM's own buckets (vllm/v1/metrics/buckets.py, the same literals inline in 0.8–0.2x loggers.py).
const REQUEST_LATENCY = [0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680];
const TTFT = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640, 2560];
const INTER_TOKEN = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80];
const ITERATION_TOKENS = [1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384];
/** 1-2-5 up to max_model_len (8192 for the simulator's servers). */
const REQUEST_TOKENS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000];
const PARAMS_N = [1, 2, 5, 10, 20];
const PREEMPTIONS = [1, 2, 3, 4, 5, 10, 20];

/** One finished or aborted request, as the replica's server saw it. */
export interface VllmRequest {
  promptTokens: number;
  /** Prompt tokens served from the prefix cache. */
  cachedTokens: number;
  maxTokens: number;
  result: SequenceResult;
  finishedReason: "stop" | "length" | "abort";
}

/**
 * The /metrics page of a vLLM server (V1 engine, one engine, prefix caching on) as the version
 * in `version` prints it: names, HELP texts, labels (`model_name` and `engine`), buckets and
 * pre-created children as vLLM's PrometheusStatLogger registers them (see
 * server/metrics/exporters/fixtures/). Inter-token latency is observed at every interval between
 * tokens, as vLLM does; aborted requests count their tokens but, as in vLLM (issue #31503), no
 * finished request and no per-request histogram.
 */
export function vllmMetrics(modelName: string, engine: BatchingEngine, version: VllmVersion, cacheInfo: { numGpuBlocks: number }) {
  const registry = new Registry();
  const legacy = vllmHasLegacyNames(version);
  const labels = { model_name: modelName, engine: "0" };
  const labelNames = ["model_name", "engine"] as const;
  const registers = [registry];
  const gauge = (name: string, help: string, read: () => number) => new Gauge({ name, help, labelNames, registers, collect() { this.set(labels, read()); } });
  // prometheus_client prints a counter `x` as `x_total`.
  const counter = (name: string, help: string) => {
    const c = new Counter({ name: `${name}_total`, help, labelNames, registers });
    c.inc(labels, 0); // prometheus_client shows every child from the start
    return c;
  };
  const histogram = (name: string, help: string, buckets: number[]) => {
    const h = new Histogram({ name, help, labelNames, buckets, registers });
    h.zero(labels);
    return h;
  };

  gauge("vllm:num_requests_running", "Number of requests in model execution batches.", () => engine.runningCount);
  gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.", () => engine.waitingCount);
  if (!legacy) {
    new Gauge({
      name: "vllm:num_requests_waiting_by_reason",
      help: "Number of waiting requests by reason. Reason labels: 'capacity' = waiting for scheduling capacity; 'deferred' = deferred by transient constraints (LoRA budget, KV transfer, blocked status). Sum of all reasons equals vllm:num_requests_waiting.",
      labelNames: [...labelNames, "reason"],
      registers,
      collect() {
        this.set({ ...labels, reason: "capacity" }, engine.waitingCount);
        this.set({ ...labels, reason: "deferred" }, 0);
      },
    });
    new Gauge({
      name: "vllm:engine_sleep_state",
      help: "Engine sleep state; awake = 0 means engine is sleeping; awake = 1 means engine is awake; weights_offloaded = 1 means sleep level 1; discard_all = 1 means sleep level 2.",
      labelNames: [...labelNames, "sleep_state"],
      registers,
      collect() {
        this.set({ ...labels, sleep_state: "awake" }, 1);
        this.set({ ...labels, sleep_state: "weights_offloaded" }, 0);
        this.set({ ...labels, sleep_state: "discard_all" }, 0);
      },
    });
  }
  let legacyQueries: Counter | null = null;
  let legacyHits: Counter | null = null;
  if (legacy) {
    gauge("vllm:gpu_cache_usage_perc", "GPU KV-cache usage. 1 means 100 percent usage.DEPRECATED: Use vllm:kv_cache_usage_perc instead.", () => engine.kvCacheUsage);
    legacyQueries = counter("vllm:gpu_prefix_cache_queries", "GPU prefix cache queries, in terms of number of queriedtokens. DEPRECATED: Use vllm:prefix_cache_queries instead.");
    legacyHits = counter("vllm:gpu_prefix_cache_hits", "GPU prefix cache hits, in terms of number of cached tokens. DEPRECATED: Use vllm:prefix_cache_hits instead.");
  }
  gauge("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", () => engine.kvCacheUsage);
  const prefixQueries = counter("vllm:prefix_cache_queries", "Prefix cache queries, in terms of number of queried tokens.");
  const prefixHits = counter("vllm:prefix_cache_hits", "Prefix cache hits, in terms of number of cached tokens.");
  if (!legacy) {
    counter("vllm:external_prefix_cache_queries", "External prefix cache queries from KV connector cross-instance cache sharing, in terms of number of queried tokens.");
    counter("vllm:external_prefix_cache_hits", "External prefix cache hits from KV connector cross-instance cache sharing, in terms of number of cached tokens.");
  }
  const preemptions = counter("vllm:num_preemptions", "Cumulative number of preemption from the engine.");
  const prompt = counter("vllm:prompt_tokens", "Number of prefill tokens processed.");
  const bySource = legacy ? null : new Counter({ name: "vllm:prompt_tokens_by_source_total", help: "Number of prompt tokens by source.", labelNames: [...labelNames, "source"], registers });
  for (const source of ["local_compute", "local_cache_hit", "external_kv_transfer"]) bySource?.inc({ ...labels, source }, 0);
  const cached = legacy ? null : counter("vllm:prompt_tokens_cached", "Number of cached prompt tokens (local + external).");
  const generation = counter("vllm:generation_tokens", "Number of generation tokens processed.");
  const success = new Counter({ name: "vllm:request_success_total", help: "Count of successfully processed requests.", labelNames: [...labelNames, "finished_reason"], registers });
  // Newer releases added `error` and `repetition`; every reason is shown from the start.
  for (const r of legacy ? ["stop", "length", "abort"] : ["stop", "length", "abort", "error", "repetition"]) success.inc({ ...labels, finished_reason: r }, 0);

  const promptHist = histogram("vllm:request_prompt_tokens", "Number of prefill tokens processed.", REQUEST_TOKENS);
  const genHist = histogram("vllm:request_generation_tokens", "Number of generation tokens processed.", REQUEST_TOKENS);
  const iteration = histogram("vllm:iteration_tokens_total", "Histogram of number of tokens per engine_step.", ITERATION_TOKENS);
  const maxGen = histogram("vllm:request_max_num_generation_tokens", "Histogram of maximum number of requested generation tokens.", REQUEST_TOKENS);
  const paramsN = histogram("vllm:request_params_n", "Histogram of the n request parameter.", PARAMS_N);
  const paramsMax = histogram("vllm:request_params_max_tokens", "Histogram of the max_tokens request parameter.", REQUEST_TOKENS);
  const ttft = histogram("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", TTFT);
  const tpotLegacy = legacy ? histogram("vllm:time_per_output_token_seconds", "Histogram of time per output token in seconds.DEPRECATED: Use vllm:inter_token_latency_seconds instead.", INTER_TOKEN) : null;
  const itl = histogram("vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", INTER_TOKEN);
  const tpotRequest = legacy ? null : histogram("vllm:request_time_per_output_token_seconds", "Histogram of time_per_output_token_seconds per request.", INTER_TOKEN);
  const e2e = histogram("vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", REQUEST_LATENCY);
  const queue = histogram("vllm:request_queue_time_seconds", "Histogram of time spent in WAITING phase for request.", REQUEST_LATENCY);
  const inference = histogram("vllm:request_inference_time_seconds", "Histogram of time spent in RUNNING phase for request.", REQUEST_LATENCY);
  const prefill = histogram("vllm:request_prefill_time_seconds", "Histogram of time spent in PREFILL phase for request.", REQUEST_LATENCY);
  const decode = histogram("vllm:request_decode_time_seconds", "Histogram of time spent in DECODE phase for request.", REQUEST_LATENCY);
  const kvComputed = legacy ? null : histogram("vllm:request_prefill_kv_computed_tokens", "Histogram of new KV tokens computed during prefill (excluding cached tokens).", REQUEST_TOKENS);
  const preemptionsHist = legacy ? null : histogram("vllm:request_num_preemptions", "Histogram of the number of preemptions per finished request.", PREEMPTIONS);
  // Registered after the engine starts, so it is last on the page.
  new Gauge({ name: "vllm:cache_config_info", help: "Information of the LLMEngine CacheConfig", labelNames: ["engine", "block_size", "cache_dtype", "enable_prefix_caching", "gpu_memory_utilization", "num_gpu_blocks"], registers }).set(
    { engine: "0", block_size: "16", cache_dtype: "auto", enable_prefix_caching: "True", gpu_memory_utilization: "0.9", num_gpu_blocks: String(cacheInfo.numGpuBlocks) },
    1,
  );

  engine.observer = {
    interval(ms) {
      itl.observe(labels, ms / 1000);
      tpotLegacy?.observe(labels, ms / 1000);
      iteration.observe(labels, 1); // a decode step of one sequence
    },
    preempted() {
      preemptions.inc(labels);
    },
  };

  return {
    registry,
    /** Records one request when it ends (finished or aborted by its client). */
    observe(r: VllmRequest) {
      const computed = r.promptTokens - r.cachedTokens;
      prompt.inc(labels, r.promptTokens);
      prefixQueries.inc(labels, r.promptTokens);
      prefixHits.inc(labels, r.cachedTokens);
      legacyQueries?.inc(labels, r.promptTokens);
      legacyHits?.inc(labels, r.cachedTokens);
      cached?.inc(labels, r.cachedTokens);
      bySource?.inc({ ...labels, source: "local_compute" }, computed);
      bySource?.inc({ ...labels, source: "local_cache_hit" }, r.cachedTokens);
      generation.inc(labels, r.result.tokens);
      iteration.observe(labels, computed);
      if (r.finishedReason === "abort") return;
      const s = r.result;
      success.inc({ ...labels, finished_reason: r.finishedReason });
      promptHist.observe(labels, r.promptTokens);
      genHist.observe(labels, s.tokens);
      maxGen.observe(labels, r.maxTokens);
      paramsN.observe(labels, 1);
      paramsMax.observe(labels, r.maxTokens);
      ttft.observe(labels, s.ttftMs / 1000);
      if (s.tokens > 1) tpotRequest?.observe(labels, s.itlMs / 1000);
      e2e.observe(labels, s.e2eMs / 1000);
      queue.observe(labels, s.queueMs / 1000);
      inference.observe(labels, (s.prefillMs + s.decodeMs) / 1000);
      prefill.observe(labels, s.prefillMs / 1000);
      decode.observe(labels, s.decodeMs / 1000);
      kvComputed?.observe(labels, computed);
      preemptionsHist?.observe(labels, s.preemptions);
    },
  };
}
