import { describe, expect, it } from "vitest";
import { nextLimit, parseEngineMetrics } from "./engine-load.ts";

describe("an engine's own load", () => {
  it("reads vLLM's running and waiting sequences and KV-cache use, and Triton's pending count", () => {
    const vllm = ['# HELP vllm:num_requests_running x', 'vllm:num_requests_running{engine="0",model_name="m"} 32.0', 'vllm:num_requests_waiting{engine="0",model_name="m"} 5.0', 'vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.5'].join("\n");
    expect(parseEngineMetrics(vllm)).toEqual({ running: 32, waiting: 5, kvUsage: 0.5 });
    // Before vLLM 0.9.2 the KV cache was gpu_cache_usage_perc; the newer name wins when both are there.
    expect(parseEngineMetrics('vllm:num_requests_running 1\nvllm:gpu_cache_usage_perc 0.7\n')).toEqual({ running: 1, waiting: 0, kvUsage: 0.7 });
    expect(parseEngineMetrics('nv_inference_pending_request_count{model="yolo",version="1"} 3\nnv_inference_pending_request_count{model="yolo",version="2"} 1\n')).toMatchObject({ waiting: 4 });
    expect(parseEngineMetrics("# a page of no engine\nprocess_cpu_seconds_total 3\n")).toBeNull();
  });

  it("learns a replica's limit when its engine queues, shares it between the gateway's processes, and creeps it up while the engine keeps up", () => {
    expect(nextLimit(Infinity, { running: 10, waiting: 0, kvUsage: 0.3 }, 10, 1)).toBe(Infinity);
    expect(nextLimit(Infinity, { running: 32, waiting: 7, kvUsage: 0.6 }, 39, 1)).toBe(32);
    expect(nextLimit(Infinity, { running: 32, waiting: 7, kvUsage: 0.6 }, 20, 2)).toBe(16);
    // A full KV cache limits with nothing waiting: the next long prompt would preempt.
    expect(nextLimit(Infinity, { running: 12, waiting: 0, kvUsage: 0.97 }, 12, 1)).toBe(12);
    // Held at its limit with nothing waiting: one more; below it, unchanged.
    expect(nextLimit(32, { running: 32, waiting: 0, kvUsage: 0.6 }, 32, 1)).toBe(33);
    expect(nextLimit(32, { running: 20, waiting: 0, kvUsage: 0.4 }, 20, 1)).toBe(32);
  });
});
