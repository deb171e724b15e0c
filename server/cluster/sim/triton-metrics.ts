import { Counter, Gauge, Registry } from "prom-client";
import type { BatchingEngine, SequenceResult } from "./engine.ts";

/** What a replica's GPU reads, for Triton's GPU gauges (null on a CPU node). */
export type GpuView = { uuid: string; util: number; usedBytes: number; totalBytes: number; powerW: number; powerLimitW: number } | null;

/** Why Triton failed a request: its four reasons (since 24.07), all shown from the start. */
export type TritonFailure = "REJECTED" | "CANCELED" | "BACKEND" | "OTHER";
const REASONS: TritonFailure[] = ["REJECTED", "CANCELED", "BACKEND", "OTHER"];

/**
 * The page Triton Inference Server (2.68.0) serves on its metrics port (8002 by default, not its
 * HTTP port): per-model counters and gauges labelled `model` and `version`, failures by `reason`,
 * the pending-request gauge, and GPU and CPU gauges, as prometheus-cpp orders them (counters,
 * then gauges). Triton also splits some model series by `gpu_uuid`; the simulator keeps them on
 * the model series, which every query sums over anyway.
 */
export function tritonMetrics(model: string, version: string, engine: BatchingEngine, gpu: () => GpuView, loadSeconds: () => number | null) {
  const registry = new Registry();
  const registers = [registry];
  const labels = { model, version };
  const labelNames = ["model", "version"] as const;
  const counter = (name: string, help: string) => {
    const c = new Counter({ name, help, labelNames, registers });
    c.inc(labels, 0);
    return c;
  };
  const ok = counter("nv_inference_request_success", "Number of successful inference requests, all batch sizes");
  const fail = new Counter({ name: "nv_inference_request_failure", help: "Number of failed inference requests, all batch sizes", labelNames: ["model", "reason", "version"], registers });
  for (const reason of REASONS) fail.inc({ ...labels, reason }, 0);
  const count = counter("nv_inference_count", "Number of inferences performed (does not include cached requests)");
  const exec = counter("nv_inference_exec_count", "Number of model executions performed (does not include cached requests)");
  const duration = counter("nv_inference_request_duration_us", "Cumulative inference request duration in microseconds (includes cached requests)");
  const queue = counter("nv_inference_queue_duration_us", "Cumulative inference queuing duration in microseconds (includes cached requests)");
  const input = counter("nv_inference_compute_input_duration_us", "Cumulative compute input duration in microseconds (does not include cached requests)");
  const infer = counter("nv_inference_compute_infer_duration_us", "Cumulative compute inference duration in microseconds (does not include cached requests)");
  const output = counter("nv_inference_compute_output_duration_us", "Cumulative inference compute output duration in microseconds (does not include cached requests)");
  const gpuLabels = ["gpu_uuid"] as const;
  // Joules since the server started, from the power it drew between scrapes.
  let joules = 0;
  let lastRead = Date.now();
  new Counter({
    name: "nv_energy_consumption",
    help: "GPU energy consumption in joules since the Triton Server started",
    labelNames: gpuLabels,
    registers,
    collect() {
      const g = gpu();
      const now = Date.now();
      if (g) {
        joules += (g.powerW * (now - lastRead)) / 1000;
        this.reset();
        this.inc({ gpu_uuid: g.uuid }, joules);
      }
      lastRead = now;
    },
  });
  new Gauge({ name: "nv_inference_pending_request_count", help: "Instantaneous number of pending requests awaiting execution per-model.", labelNames, registers, collect() { this.set(labels, engine.waitingCount); } });
  new Gauge({ name: "nv_model_load_duration_secs", help: "Model load time in seconds", labelNames, registers, collect() { const s = loadSeconds(); if (s !== null) this.set(labels, s); } });
  const gpuGauge = (name: string, help: string, read: (g: NonNullable<GpuView>) => number) =>
    new Gauge({ name, help, labelNames: gpuLabels, registers, collect() { const g = gpu(); if (g) this.set({ gpu_uuid: g.uuid }, read(g)); } });
  gpuGauge("nv_gpu_utilization", "GPU utilization rate [0.0 - 1.0)", (g) => g.util);
  gpuGauge("nv_gpu_memory_total_bytes", "GPU total memory, in bytes", (g) => g.totalBytes);
  gpuGauge("nv_gpu_memory_used_bytes", "GPU used memory, in bytes", (g) => g.usedBytes);
  gpuGauge("nv_gpu_power_usage", "GPU power usage in watts", (g) => g.powerW);
  gpuGauge("nv_gpu_power_limit", "GPU power management limit in watts", (g) => g.powerLimitW);
  new Gauge({ name: "nv_cpu_utilization", help: "CPU utilization rate [0.0 - 1.0]", registers, collect() { this.set(Math.min(1, 0.05 + 0.02 * engine.runningCount)); } });
  new Gauge({ name: "nv_cpu_memory_total_bytes", help: "CPU total memory (RAM), in bytes", registers }).set(512 * 2 ** 30);
  new Gauge({ name: "nv_cpu_memory_used_bytes", help: "CPU used memory (RAM), in bytes", registers }).set(24 * 2 ** 30);
  new Gauge({ name: "nv_pinned_memory_pool_total_bytes", help: "Pinned memory pool total memory size, in bytes", registers }).set(268435456);
  new Gauge({ name: "nv_pinned_memory_pool_used_bytes", help: "Pinned memory pool used memory size, in bytes", registers }).set(0);
  return {
    registry,
    observe(r: SequenceResult) {
      if (r.aborted) return fail.inc({ ...labels, reason: "CANCELED" });
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
    failed(reason: TritonFailure) {
      fail.inc({ ...labels, reason });
    },
  };
}
