import { describe, expect, it } from "vitest";
import { fitLine, fitTable, proposeParallelism } from "./parallelism.ts";
import { kvBytesPerToken, memoryNeed } from "./memory-rule.ts";

const GiB = 2 ** 30;
const h100 = { modelName: "NVIDIA H100 80GB HBM3", memoryBytes: 80 * GiB, gpusPerNode: 8, nodes: 4 };
// Llama 3.1 70B's card: 80 layers, 8 KV heads of 128 (config.json), 141 GB of bf16 weights;
// configured for 8 sequences of 8k tokens at once.
const llama70b = { weightBytes: 141e9, parameterCount: 70.6e9, task: "llm", attention: { layers: 80, kvHeads: 8, headDim: 128 }, kvTokens: 8 * 8192, label: "70B bf16" };
// A 405B-class model in FP8: 126 layers, 8 KV heads of 128, about 405 GB of weights.
const llama405b = { weightBytes: 405e9, parameterCount: 405e9, task: "llm", attention: { layers: 126, kvHeads: 8, headDim: 128 } };

describe("parallelism from memory", () => {
  it("reads the KV cache per token from the model card: Llama 70B holds 320 KiB per token", () => {
    expect(kvBytesPerToken(70.6e9, llama70b.attention)).toBe(327_680);
  });

  it("splits weights and KV over the group: each GPU of a TP 4 holds a quarter", () => {
    const one = memoryNeed(llama70b);
    const four = memoryNeed(llama70b, { tensor: 4, pipeline: 1 });
    expect(four.weightBytes).toBe(one.weightBytes / 4);
    expect(four.kvBytes).toBe(one.kvBytes / 4);
  });

  it("proposes TP 4 for 70B bf16 on H100 (TP 2 does not fit), and two nodes of 8 for 405B FP8", () => {
    expect(proposeParallelism(llama70b, h100)).toEqual({ tensor: 4, pipeline: 1 });
    expect(proposeParallelism(llama405b, h100)).toEqual({ tensor: 8, pipeline: 1 });
    expect(proposeParallelism({ ...llama405b, weightBytes: 810e9 }, h100)).toEqual({ tensor: 8, pipeline: 2 });
    expect(proposeParallelism({ ...llama405b, weightBytes: 810e9 }, { ...h100, nodes: 1 })).toBeNull();
  });

  it("says in one line what each split leaves for the KV cache, as the deploy form shows it", () => {
    const tp4 = fitLine(llama70b, h100, { tensor: 4, pipeline: 1 }, 8192);
    expect(tp4.text).toBe("70B bf16, TP 4 (4 GPUs): 32.8 GiB weights + 39.2 GiB KV (62 sequences of 8192 tokens) per GPU: fits NVIDIA H100 80GB HBM3");
    expect(tp4.sequences).toBe(62);
    const tp2 = fitTable(llama70b, h100, 8192).find((l) => l.gpus === 2)!;
    expect(tp2.fits).toBe(false);
    expect(tp2.text).toMatch(/TP 2 \(2 GPUs\): 75\.7 GiB per GPU .* more than the 72\.0 GiB usable of NVIDIA H100 80GB HBM3: does not fit/);
    expect(fitTable(llama70b, h100, 8192).map((l) => l.gpus)).toEqual([1, 2, 4, 8, 16, 24, 32]);
  });
});
