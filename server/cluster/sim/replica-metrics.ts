import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { BatchingEngine, SequenceResult } from "./engine.ts";

/** The metrics a vLLM server exposes on /metrics, under vLLM's own names and `model_name` label. */
export function vllmMetrics(modelName: string, engine: BatchingEngine) {
  const registry = new Registry();
  const labels = { model_name: modelName };
  const labelNames = ["model_name"] as const;
  new Gauge({ name: "vllm:num_requests_running", help: "Number of requests in model execution batches.", labelNames, registers: [registry], collect() { this.set(labels, engine.runningCount); } });
  new Gauge({ name: "vllm:num_requests_waiting", help: "Number of requests waiting to be processed.", labelNames, registers: [registry], collect() { this.set(labels, engine.waitingCount); } });
  new Gauge({ name: "vllm:kv_cache_usage_perc", help: "KV-cache usage. 1 means 100 percent usage.", labelNames, registers: [registry], collect() { this.set(labels, engine.kvCacheUsage); } });
  const prompt = new Counter({ name: "vllm:prompt_tokens_total", help: "Number of prefill tokens processed.", labelNames, registers: [registry] });
  const generation = new Counter({ name: "vllm:generation_tokens_total", help: "Number of generation tokens processed.", labelNames, registers: [registry] });
  const success = new Counter({ name: "vllm:request_success_total", help: "Count of successfully processed requests.", labelNames: ["model_name", "finished_reason"], registers: [registry] });
  new Counter({ name: "vllm:num_preemptions_total", help: "Cumulative number of preemptions from the engine.", labelNames, registers: [registry] }).inc(labels, 0);
  const prefixQueries = new Counter({ name: "vllm:prefix_cache_queries_total", help: "Prefix cache queries, in terms of number of queried tokens.", labelNames, registers: [registry] });
  new Counter({ name: "vllm:prefix_cache_hits_total", help: "Prefix cache hits, in terms of number of cached tokens.", labelNames, registers: [registry] }).inc(labels, 0);
  const seconds = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80];
  const ttft = new Histogram({ name: "vllm:time_to_first_token_seconds", help: "Histogram of time to first token in seconds.", labelNames, buckets: seconds, registers: [registry] });
  const itl = new Histogram({ name: "vllm:inter_token_latency_seconds", help: "Histogram of inter-token latency in seconds.", labelNames, buckets: [0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1], registers: [registry] });
  const e2e = new Histogram({ name: "vllm:e2e_request_latency_seconds", help: "Histogram of end to end request latency in seconds.", labelNames, buckets: seconds, registers: [registry] });
  const queue = new Histogram({ name: "vllm:request_queue_time_seconds", help: "Histogram of time spent in WAITING phase for request.", labelNames, buckets: seconds, registers: [registry] });
  const tokenBuckets = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
  const promptHist = new Histogram({ name: "vllm:request_prompt_tokens", help: "Number of prefill tokens processed.", labelNames, buckets: tokenBuckets, registers: [registry] });
  const genHist = new Histogram({ name: "vllm:request_generation_tokens", help: "Number of generation tokens processed.", labelNames, buckets: tokenBuckets, registers: [registry] });
  return {
    registry,
    /** Records one finished request. */
    observe(promptTokens: number, r: SequenceResult, finishedReason: "stop" | "length" | "abort") {
      prompt.inc(labels, promptTokens);
      prefixQueries.inc(labels, promptTokens);
      generation.inc(labels, r.tokens);
      if (finishedReason !== "abort") success.inc({ ...labels, finished_reason: finishedReason });
      ttft.observe(labels, r.ttftMs / 1000);
      if (r.tokens > 1) itl.observe(labels, r.itlMs / 1000);
      e2e.observe(labels, r.e2eMs / 1000);
      queue.observe(labels, r.queueMs / 1000);
      promptHist.observe(labels, promptTokens);
      genHist.observe(labels, r.tokens);
    },
  };
}

/** Triton's metrics (port 8002 on a real server) for vision and embedding replicas. */
export function tritonMetrics(model: string, version: string, engine: BatchingEngine, gpu: () => { uuid: string; util: number; usedBytes: number; totalBytes: number; powerW: number } | null) {
  const registry = new Registry();
  const labels = { model, version };
  const labelNames = ["model", "version"] as const;
  const ok = new Counter({ name: "nv_inference_request_success", help: "Number of successful inference requests, all batch sizes", labelNames, registers: [registry] });
  const fail = new Counter({ name: "nv_inference_request_failure", help: "Number of failed inference requests, all batch sizes", labelNames, registers: [registry] });
  const count = new Counter({ name: "nv_inference_count", help: "Number of inferences performed", labelNames, registers: [registry] });
  const exec = new Counter({ name: "nv_inference_exec_count", help: "Number of model executions performed", labelNames, registers: [registry] });
  const duration = new Counter({ name: "nv_inference_request_duration_us", help: "Cumulative inference request duration in microseconds", labelNames, registers: [registry] });
  const queue = new Counter({ name: "nv_inference_queue_duration_us", help: "Cumulative inference queuing duration in microseconds", labelNames, registers: [registry] });
  const input = new Counter({ name: "nv_inference_compute_input_duration_us", help: "Cumulative compute input duration in microseconds", labelNames, registers: [registry] });
  const infer = new Counter({ name: "nv_inference_compute_infer_duration_us", help: "Cumulative compute inference duration in microseconds", labelNames, registers: [registry] });
  const output = new Counter({ name: "nv_inference_compute_output_duration_us", help: "Cumulative inference compute output duration in microseconds", labelNames, registers: [registry] });
  const gpuLabels = ["gpu_uuid"] as const;
  new Gauge({ name: "nv_gpu_utilization", help: "GPU utilization rate [0.0 - 1.0)", labelNames: gpuLabels, registers: [registry], collect() { const g = gpu(); if (g) this.set({ gpu_uuid: g.uuid }, g.util); } });
  new Gauge({ name: "nv_gpu_memory_used_bytes", help: "GPU used memory, in bytes", labelNames: gpuLabels, registers: [registry], collect() { const g = gpu(); if (g) this.set({ gpu_uuid: g.uuid }, g.usedBytes); } });
  new Gauge({ name: "nv_gpu_memory_total_bytes", help: "GPU total memory, in bytes", labelNames: gpuLabels, registers: [registry], collect() { const g = gpu(); if (g) this.set({ gpu_uuid: g.uuid }, g.totalBytes); } });
  new Gauge({ name: "nv_gpu_power_usage", help: "GPU power usage in watts", labelNames: gpuLabels, registers: [registry], collect() { const g = gpu(); if (g) this.set({ gpu_uuid: g.uuid }, g.powerW); } });
  return {
    registry,
    observe(r: SequenceResult, failed: boolean) {
      if (failed) return fail.inc(labels);
      ok.inc(labels);
      count.inc(labels);
      exec.inc(labels);
      const us = r.e2eMs * 1000;
      duration.inc(labels, us);
      queue.inc(labels, r.queueMs * 1000);
      input.inc(labels, us * 0.05);
      infer.inc(labels, Math.max(0, us - r.queueMs * 1000) * 0.9);
      output.inc(labels, us * 0.05);
    },
  };
}
