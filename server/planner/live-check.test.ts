import { describe, expect, it } from "vitest";
import { compareLive } from "./live-check.ts";
import { specFor } from "./hardware.ts";

const h100 = specFor("NVIDIA H100 80GB HBM3")!;
// Llama 3.1 8B in bf16: 16 GB of weights, 128 KiB of KV a token.
const llama8b = { parameterCount: 8e9, weightBytes: 16e9, fp8: false, kvBytesPerToken: 131072, layers: 32 };

describe("the planner's prediction for a live load, beside what was measured", () => {
  it("predicts TPOT from the batch the replicas run and puts the error beside it", () => {
    const load = { requestsPerS: 2, promptTokens: 1000, answerTokens: 200, batch: 4, replicas: 2 };
    const rows = compareLive(llama8b, h100, { tensor: 1, pipeline: 1 }, load, { ttftP99Ms: 120, tpotP99Ms: 10, outputTokensPerS: 400 });
    const tpot = rows.find((r) => r.metric === "tpotP99Ms")!;
    // By hand: (16e9 + 4 × 1100 × 131072) B / (3.35e12 × 0.75) B/s = 6.60 ms, + 1 ms overhead = 7.60 ms; p99 1.2× = 9.12 ms.
    expect(tpot.predicted).toBeCloseTo(9.12, 1);
    expect(tpot.errorPct).toBeCloseTo(-8.8, 0);
    const tokens = rows.find((r) => r.metric === "tokensPerSPerReplica")!;
    expect(tokens.measured).toBe(200);
    expect(tokens.predicted).toBeCloseTo((4 * 1000) / 7.6, -1);
  });

  it("leaves the error blank where Prometheus had no figure", () => {
    const rows = compareLive(llama8b, h100, { tensor: 1, pipeline: 1 }, { requestsPerS: 1, promptTokens: 10, answerTokens: 10, batch: 0, replicas: 1 }, { ttftP99Ms: null, tpotP99Ms: null, outputTokensPerS: 10 });
    expect(rows.filter((r) => r.errorPct === null).map((r) => r.metric)).toEqual(["ttftP99Ms", "tpotP99Ms"]);
  });
});
