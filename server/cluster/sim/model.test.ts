import { describe, expect, it } from "vitest";
import { countTokens, generatePieces } from "./tokens.ts";
import { LLM_DEFAULTS, coldStartMs, kvUsage, tpotMs, ttftMs } from "./latency-model.ts";

describe("the simulator's token rule", () => {
  it("counts runs of letters and digits and each other non-space character", () => {
    expect(countTokens("Merhaba, dünya!")).toBe(4);
    expect(countTokens("GPU-7 has 80GB.")).toBe(6);
    expect(countTokens("   ")).toBe(0);
  });
  it("generates text whose count is exactly the tokens asked for", () => {
    for (const n of [1, 11, 12, 100]) expect(countTokens(generatePieces(n, 42).join(""))).toBe(n);
  });
});

describe("the continuous-batching latency model", () => {
  it("makes TTFT grow with prompt tokens and with load", () => {
    expect(ttftMs(LLM_DEFAULTS, 1000, 0)).toBeGreaterThan(ttftMs(LLM_DEFAULTS, 10, 0));
    expect(ttftMs(LLM_DEFAULTS, 100, 30)).toBeGreaterThan(ttftMs(LLM_DEFAULTS, 100, 0));
  });
  it("makes each token slower as the batch fills", () => {
    expect(tpotMs(LLM_DEFAULTS, 32)).toBeGreaterThan(tpotMs(LLM_DEFAULTS, 1));
    expect(tpotMs({ ...LLM_DEFAULTS, scale: 0 }, 32)).toBe(0);
  });
  it("fills the KV cache with tokens in flight, and loads weights at the storage bandwidth", () => {
    expect(kvUsage(1000, 1000, 2_000_000)).toBe(0.5);
    expect(kvUsage(10_000, 1000, 2_000_000)).toBe(1);
    expect(coldStartMs(8e9, 4e9)).toBe(2500);
  });
});
