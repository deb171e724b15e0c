import { describe, expect, it } from "vitest";
import { planCandidates, type Fleet } from "./plan.ts";
import { specFor } from "./hardware.ts";
import { kvBytesPerToken } from "../shared/memory-rule.ts";

const llama70b = { layers: 80, kvHeads: 8, headDim: 128 };
const llama8b = { layers: 32, kvHeads: 8, headDim: 128 };
const fleet = (modelName: string, gpusPerNode: number, nodes: number, perHour: number | null): Fleet => ({ spec: specFor(modelName)!, modelName, gpusPerNode, nodes, perHour });
const FLEET = [fleet("NVIDIA H100 80GB HBM3", 8, 4, 90), fleet("NVIDIA L40S", 4, 4, 40)];
const flat = Array<number>(24).fill(1);
const energy = { pricePerKwh: 3.5, pue: 1.3 };

function plan70b(peakRps: number, hourly = flat) {
  const memory = { weightBytes: 141.2e9, parameterCount: 70.6e9, task: "llm", attention: llama70b };
  const work = { parameterCount: 70.6e9, weightBytes: 141.2e9, fp8: false, kvBytesPerToken: kvBytesPerToken(70.6e9, llama70b), layers: 80 };
  return planCandidates(memory, work, FLEET, { peakRps, hourly, promptTokens: 1000, answerTokens: 250, prefixShare: 0 }, { ttftP99Ms: 2000, tpotP99Ms: 50 }, energy);
}

describe("the capacity plan", () => {
  it("ranks H100 × TP 4 × 2 replicas first for a 70B chat at 10 requests/s, with its cost per 1M tokens", () => {
    const [best] = plan70b(10);
    expect(best).toMatchObject({ gpu: "NVIDIA H100 80GB HBM3", split: { tensor: 4, pipeline: 1 }, replicas: 2, gpus: 8, refused: null });
    expect(best!.tpotP99Ms).toBeLessThanOrEqual(50);
    expect(best!.ttftP99Ms).toBeLessThanOrEqual(2000);
    // 8 GPU-hours an hour at 90 plus energy, over 10 calls/s × 1,250 tokens × 3,600 s.
    const gpuCost = 8 * 24 * 90;
    expect(best!.costPer1MTokens!).toBeGreaterThan((gpuCost / (10 * 1250 * 86_400)) * 1e6);
    expect(best!.costPer1MTokens!).toBeLessThan(((gpuCost * 1.05) / (10 * 1250 * 86_400)) * 1e6);
  });

  it("says which limit each refusal hits", () => {
    const all = plan70b(10);
    expect(all.find((c) => c.device === "NVIDIA L40S")!.refused).toBe("131.9 GiB per GPU (weights and one sequence of 1250 tokens) is more than the 43.2 GiB usable of a NVIDIA L40S");
    expect(all.find((c) => c.device === "NVIDIA L40S × 4 (TP 4)")!.refused).toMatch(/^a decode step takes 60\.\d ms even for one sequence; TPOT p99 would be 72\.\d ms against 50 ms$/);
    // Refusals come after every candidate that meets the SLOs.
    const firstRefused = all.findIndex((c) => c.refused);
    expect(all.slice(firstRefused).every((c) => c.refused)).toBe(true);
  });

  it("follows the forecast's day: autoscaled GPU-hours under the fixed fleet's when the night is quiet", () => {
    const day = [...Array(8).fill(0.1), ...Array(16).fill(1)];
    const [best] = plan70b(20, day);
    expect(best!.gpuHoursPerDay.autoscaled).toBeLessThan(best!.gpuHoursPerDay.fixed);
    expect(best!.costPer1MTokens!).toBeLessThan(best!.costPer1MTokensFixed!);
    expect(best!.kwhPerDay).toBeGreaterThan(0);
  });

  it("offers MIG instances for a small model, costed as their share of the GPU", () => {
    const memory = { weightBytes: 8.03e9, parameterCount: 8.03e9, task: "llm", attention: llama8b };
    const work = { parameterCount: 8.03e9, weightBytes: 8.03e9, fp8: true, kvBytesPerToken: kvBytesPerToken(8.03e9, llama8b), layers: 32 };
    const all = planCandidates(memory, work, FLEET, { peakRps: 0.5, hourly: flat, promptTokens: 300, answerTokens: 100, prefixShare: 0.5 }, { ttftP99Ms: 1000, tpotP99Ms: 60 }, energy);
    const mig = all.find((c) => c.device === "NVIDIA H100 80GB HBM3 MIG 2g.20gb");
    expect(mig).toMatchObject({ refused: null });
    expect(mig!.gpuHoursPerDay.fixed).toBeCloseTo((mig!.replicas * 24 * 2) / 7, 6);
    // The cheapest that meets the SLOs comes first: a MIG slice beats a whole H100 for this load.
    expect(all[0]!.device).toMatch(/MIG/);
  });
});
