import { describe, expect, it } from "vitest";
import { kvBytesPerToken } from "../shared/memory-rule.ts";
import { decodeStepMs, decodeTokensPerS, firstTokenMs, gpuPowerW, prefillMs, wholeGpu } from "./roofline.ts";
import { specFor } from "./hardware.ts";

const h100 = wholeGpu(specFor("NVIDIA H100 80GB HBM3")!);
const l40s = wholeGpu(specFor("NVIDIA L40S")!);
const llama8b = { layers: 32, kvHeads: 8, headDim: 128 };
const llama70b = { layers: 80, kvHeads: 8, headDim: 128 };
const w8 = (fp8: boolean) => ({ parameterCount: 8.03e9, weightBytes: 8.03e9 * (fp8 ? 1 : 2), fp8, kvBytesPerToken: kvBytesPerToken(8.03e9, llama8b), layers: 32 });
const w70 = (fp8: boolean) => ({ parameterCount: 70.6e9, weightBytes: 70.6e9 * (fp8 ? 1 : 2), fp8, kvBytesPerToken: kvBytesPerToken(70.6e9, llama70b), layers: 80 });
const one = { tensor: 1, pipeline: 1 };
/** Two all-reduces a layer: NCCL's latency, and a ring's 2(N−1)/N of tokens × hidden (√(P / 12L)) × 2 bytes over the link. */
const allReduce = (params: number, layers: number, n: number, tokens: number, latencyMs: number, linkBytesPerS: number) =>
  2 * layers * (latencyMs + (((2 * (n - 1)) / n) * tokens * Math.sqrt(params / (12 * layers)) * 2 * 1000) / linkBytesPerS);

describe("the planner's roofline, against hand-computed cases", () => {
  it("keeps 128 KiB of KV cache a token for Llama 3.1 8B and 320 KiB for 70B in bf16 (2 × layers × KV heads × head size × 2 bytes)", () => {
    expect(kvBytesPerToken(8.03e9, llama8b)).toBe(2 * 32 * 8 * 128 * 2);
    expect(kvBytesPerToken(8.03e9, llama8b)).toBe(128 * 1024);
    expect(kvBytesPerToken(70.6e9, llama70b)).toBe(320 * 1024);
  });

  it("decodes memory-bound: one step streams the weights at 75% of HBM bandwidth, plus 1 ms of overhead", () => {
    // 8B bf16 on an H100: 16.06 GB / (3.35 TB/s × 0.75) = 6.39 ms, + 1 ms.
    expect(decodeStepMs(w8(false), h100, one, 1, 0)).toBeCloseTo(16.06e9 / (3.35e12 * 0.75) * 1000 + 1, 6);
    // FP8 halves the bytes: 3.20 + 1 ms.
    expect(decodeStepMs(w8(true), h100, one, 1, 0)).toBeCloseTo(8.03e9 / (3.35e12 * 0.75) * 1000 + 1, 6);
    // The batch's KV cache is read each step too: 32 sequences of 2,000 tokens add 8.4 GB.
    expect(decodeStepMs(w8(false), h100, one, 32, 2000) - decodeStepMs(w8(false), h100, one, 1, 2000)).toBeCloseTo((31 * 2000 * 131072) / (3.35e12 * 0.75) * 1000, 6);
    // 70B bf16 over TP 4 on NVLink: a quarter of 141.2 GB, and 160 all-reduces at 12 µs (1.93 ms in all).
    const tp4 = allReduce(70.6e9, 80, 4, 1, 0.012, 450e9);
    expect(tp4).toBeCloseTo(1.929, 3);
    expect(decodeStepMs(w70(false), h100, { tensor: 4, pipeline: 1 }, 1, 0)).toBeCloseTo((141.2e9 / 4 / (3.35e12 * 0.75)) * 1000 + tp4 + 1, 6);
    // An L40S streams at 864 GB/s, and its all-reduces go over PCIe (30 µs each, 32 GB/s).
    expect(decodeStepMs(w8(false), l40s, { tensor: 2, pipeline: 1 }, 1, 0)).toBeCloseTo((16.06e9 / 2 / (864e9 * 0.75)) * 1000 + allReduce(8.03e9, 32, 2, 1, 0.03, 32e9) + 1, 6);
  });

  it("prefills compute-bound: 2 × parameters × tokens at 50% of the tensor FLOP/s, FP8 on FP8 tensor cores", () => {
    expect(prefillMs(w8(false), h100, one, 1000)).toBeCloseTo(((2 * 8.03e9 * 1000) / (989e12 * 0.5)) * 1000, 6); // 32.5 ms
    expect(prefillMs(w8(true), h100, one, 1000)).toBeCloseTo(((2 * 8.03e9 * 1000) / (1979e12 * 0.5)) * 1000, 6); // 16.2 ms
    // Two nodes of TP 8: the FLOPs over 16 GPUs, TP 8's all-reduces of 1,000 tokens' activations, one 1 ms hop between the stages.
    expect(prefillMs(w70(true), h100, { tensor: 8, pipeline: 2 }, 1000)).toBeCloseTo(((2 * 70.6e9 * 1000) / (16 * 1979e12 * 0.5)) * 1000 + allReduce(70.6e9, 80, 8, 1000, 0.012, 450e9) + 1, 6);
  });

  it("yields the first token in the step that prefills the prompt: a short prompt costs a decode step, a long one its FLOPs", () => {
    const step = decodeStepMs(w8(true), h100, one, 8, 500);
    // 20 tokens more of FLOPs stay under the weights' streaming time: the first token comes a step after admission.
    expect(firstTokenMs(w8(true), h100, one, 20, 8, 500)).toBeCloseTo(step, 6);
    // 4,000 tokens are compute-bound: 2 × 8.03e9 × (8 / 0.35 + 4,000 / 0.5) FLOPs at FP8 peak, + 1 ms.
    expect(firstTokenMs(w8(true), h100, one, 4000, 8, 500)).toBeCloseTo(((2 * 8.03e9) / 1979e12) * (8 / 0.35 + 4000 / 0.5) * 1000 + 1, 6);
  });

  it("turns compute-bound at large batches, past the roofline's ridge", () => {
    const big = decodeStepMs(w8(true), h100, one, 256, 0);
    // A decode step's GEMMs run at 35% of peak: they have one row per sequence.
    const compute = ((2 * 8.03e9 * 256) / (1979e12 * 0.35)) * 1000 + 1;
    expect(big).toBeGreaterThanOrEqual(compute - 1e-9);
    expect(decodeTokensPerS(w8(true), h100, one, 64, 1000)).toBeGreaterThan(decodeTokensPerS(w8(true), h100, one, 8, 1000));
  });

  it("draws idle power when idle and the board's maximum when full", () => {
    expect(gpuPowerW(h100.spec, 0)).toBe(72);
    expect(gpuPowerW(h100.spec, 1)).toBe(700);
    expect(gpuPowerW(h100.spec, 2)).toBe(700);
  });
});
