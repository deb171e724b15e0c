import { describe, expect, it } from "vitest";
import { memoryShares, planRows } from "./plan-view";

const GiB = 2 ** 30;

describe("the plan as the page shows it", () => {
  it("splits a GPU's memory into weights, KV cache and runtime shares", () => {
    // 70B bf16 over TP 4 on an 80 GiB H100: 35.3 GB of weights a GPU, 8 GiB kept back.
    expect(memoryShares({ weightBytesPerGpu: 32 * GiB, kvBytesPerGpu: 40 * GiB, overheadBytesPerGpu: 8 * GiB })).toEqual({ weights: 40, kv: 50, overhead: 10 });
    expect(memoryShares({ weightBytesPerGpu: 0, kvBytesPerGpu: 0, overheadBytesPerGpu: 0 })).toEqual({ weights: 0, kv: 0, overhead: 0 });
  });

  it("ranks those that meet the SLOs and lists the refusals apart, in the plan's order", () => {
    const rows = planRows({ candidates: [{ device: "a", refused: null }, { device: "b", refused: "too slow" }, { device: "c", refused: null }] as never });
    expect(rows.ranked.map((c) => c.device)).toEqual(["a", "c"]);
    expect(rows.refused.map((c) => c.device)).toEqual(["b"]);
  });
});
