import { describe, expect, it } from "vitest";
import { physicalLatency, simGpu, type PhysicalModel, type PhysicalPlacement } from "./engine-physics.ts";
import { tpotMs, ttftMs } from "./latency-model.ts";

// Llama 3.1 8B in FP8 and 70B in bf16 (KV in bf16: 128 and 320 KiB a token).
const l8: PhysicalModel = { parameterCount: 8.03e9, weightBytes: 8.03e9, kvBytesPerToken: 131072, layers: 32 };
const l70: PhysicalModel = { parameterCount: 70.6e9, weightBytes: 141.2e9, kvBytesPerToken: 327680, layers: 80 };
const h100 = (o: Partial<PhysicalPlacement> = {}): PhysicalPlacement => ({ gpu: simGpu("NVIDIA H100 80GB HBM3"), tensor: 1, pipeline: 1, nvlink: true, share: 1, ...o });
const step = (m: PhysicalModel, g: PhysicalPlacement, batch = 1, held = 0) => tpotMs(physicalLatency(m, g, 1), batch, held);

describe("the simulated engine's physics", () => {
  it("steps an 8B FP8 model on one H100 at its weights over 90% of HBM, plus kernel launches and the host's step", () => {
    // 8.03 GB / (3.35 TB/s × 0.9) = 2.663 ms; 32 layers × 7 kernels × 2 µs = 0.448 ms; host 0.8 + 0.015 ms.
    expect(step(l8, h100())).toBeCloseTo(2.663 + 0.448 + 0.815, 2);
  });

  it("reads every held token's KV cache each step: 8 sequences of 1k tokens add 8 × 1024 × 128 KiB over the bandwidth", () => {
    const added = step(l8, h100(), 1, 8192) - step(l8, h100(), 1, 0);
    expect(added).toBeCloseTo(((8192 * 131072) / (3.35e12 * 0.9)) * 1000, 4);
  });

  it("splits a 70B model's step over tensor-parallel GPUs below linear, slower over PCIe, and adds a hop per pipeline stage", () => {
    const tp = (tensor: number, nvlink = true) => step(l70, h100({ tensor, nvlink }));
    expect(tp(4)).toBeGreaterThan(14);
    expect(tp(4)).toBeLessThan(17);
    expect(tp(4) / tp(8)).toBeGreaterThan(1.3);
    expect(tp(4) / tp(8)).toBeLessThan(2);
    expect(tp(4, false)).toBeGreaterThan(tp(4));
    expect(step(l70, h100({ tensor: 4, pipeline: 2 })) - step(l70, h100({ tensor: 8 }))).toBeGreaterThan(0.9);
  });

  it("prefills compute-bound: a longer prompt costs 2 × parameters FLOPs a token at 55% of FP8 peak", () => {
    const p = physicalLatency(l8, h100(), 1);
    expect(ttftMs(p, 1000, 0) - ttftMs(p, 0, 0)).toBeCloseTo(((1000 * 2 * 8.03e9) / (1979e12 * 0.55)) * 1000, 3);
  });

  it("runs slower on a MIG instance's share, and an unknown GPU as an A100", () => {
    expect(step(l8, h100({ share: 0.5 }))).toBeGreaterThan(step(l8, h100()) * 1.5);
    expect(simGpu("Some Future GPU")).toEqual(simGpu("NVIDIA A100-SXM4-80GB"));
  });

  it("is turned off at scale 0", () => {
    expect(tpotMs(physicalLatency(l70, h100({ tensor: 4 }), 0), 8, 1000)).toBe(0);
  });
});
