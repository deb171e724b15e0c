import type { ServingEngine } from "../../db/generated/enums.ts";

/** Which exporter's metrics an engine's servers publish. */
export type EngineMetrics = "vllm" | "triton";

/**
 * vLLM publishes vLLM's metrics; the other engines Kule knows (Triton itself, TensorRT-LLM,
 * ONNX Runtime and OpenVINO) are served through Triton's backends and publish Triton's.
 */
export function metricsOf(engine: ServingEngine): EngineMetrics {
  return engine === "vllm" ? "vllm" : "triton";
}

/** Triton's default `--metrics-port`: it serves /metrics there, not on its HTTP API port. */
export const TRITON_METRICS_PORT = 8002;

/**
 * Where a server's metrics are, from the URL it serves requests on: vLLM's /metrics is on its API
 * port (under any path prefix the URL has); Triton's is on port 8002 of the same host.
 */
export function defaultMetricsUrl(engine: ServingEngine, serverUrl: string): string {
  const base = serverUrl.replace(/\/+$/, "");
  if (metricsOf(engine) === "vllm") return `${base}/metrics`;
  const u = new URL(base);
  return `${u.protocol}//${u.hostname}:${TRITON_METRICS_PORT}/metrics`; // hostname keeps an IPv6 address's brackets
}
