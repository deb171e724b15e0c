/**
 * The gateway bench's `stream` figures: STREAMS concurrent streamed chat calls of TOKENS tokens
 * each (bench/stream-load.ts, its own process) against an upstream stepping every stream at
 * 50 tokens/s (bench/stream-upstream.ts), through each target. Per target: the CPU it spends per
 * token passed on, and what it adds to the inter-token gap's p99 over calling the upstream directly.
 */
import { execFileSync } from "node:child_process";
import { median } from "./lib.ts";

export const STREAMS = 200;
export const TOKENS = 256;

export interface StreamRun {
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  /** Tokens received: what the target's CPU over the round is charged to. */
  requests: number;
  cpuMs?: number;
  postgresCpuMs?: number;
}

export function streamRun(url: string, headers: Record<string, string>): StreamRun {
  const out = execFileSync(process.execPath, ["--import", "tsx", "bench/stream-load.ts", JSON.stringify({ url, streams: STREAMS, tokens: TOKENS, headers })], { encoding: "utf8" });
  const r = JSON.parse(out.trim().split("\n").pop()!) as { tokens: number; failed: number; seconds: number; itl_p50_ms: number; itl_p99_ms: number };
  return { p50: r.itl_p50_ms, p99: r.itl_p99_ms, rps: r.tokens / r.seconds, errors: r.failed, requests: r.tokens };
}

export function streamFigures(results: Record<string, StreamRun[]>) {
  const direct = results.direct!;
  const figures: Record<string, unknown> = { streams: STREAMS, tokens_per_stream: TOKENS, tokens_per_s_per_stream: 50 };
  for (const [name, runs] of Object.entries(results)) {
    figures[name === "naive" ? "naive_node_proxy" : name] = {
      itl_p50_ms: median(runs.map((r) => r.p50)),
      itl_p99_ms: median(runs.map((r) => r.p99)),
      added_itl_p99_ms: name === "direct" ? 0 : +median(runs.map((r, i) => r.p99 - direct[i]!.p99)).toFixed(2),
      cpu_us_per_token: +(median(runs.map((r) => r.cpuMs ?? 0)) * 1000).toFixed(1),
      errors: runs.reduce((s, r) => s + r.errors, 0),
    };
  }
  const of = (k: string) => figures[k] as { cpu_us_per_token: number; added_itl_p99_ms: number } | undefined;
  const one = of("gateway_one_process");
  const naive = of("naive_node_proxy");
  if (one && naive) {
    figures.one_process_over_naive_cpu = +(one.cpu_us_per_token / naive.cpu_us_per_token).toFixed(2);
    // What each adds to the gap is within the rounds' noise (±1 ms): the p99s themselves are compared.
    figures.one_process_over_naive_itl_p99 = +((figures.gateway_one_process as { itl_p99_ms: number }).itl_p99_ms / (figures.naive_node_proxy as { itl_p99_ms: number }).itl_p99_ms).toFixed(2);
  }
  return figures;
}
