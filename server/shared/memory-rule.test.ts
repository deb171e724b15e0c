import { describe, expect, it } from "vitest";
import { fitsDevice, memoryNeed, MIN_KV_TOKENS, kvBytesPerToken, needText } from "./memory-rule.ts";
import { migInstanceMemoryBytes } from "../cluster/mig.ts";

const GiB = 2 ** 30;
const h100 = 80 * GiB;

describe("the one memory rule", () => {
  it("needs the weights plus a KV cache for one full sequence, at 90% of the device", () => {
    const llama8b = memoryNeed({ weightBytes: 16e9, parameterCount: 8e9, task: "llm" });
    expect(llama8b.kvBytes).toBe(MIN_KV_TOKENS * 131072);
    expect(fitsDevice(migInstanceMemoryBytes(h100, "2g.20gb"), llama8b.bytes)).toBe(true);
    // 70B at fp8 fits a whole H100, not a 4g.40gb instance.
    const llama70b = memoryNeed({ weightBytes: 70.6e9, parameterCount: 70.6e9, task: "llm" });
    expect(fitsDevice(h100, llama70b.bytes)).toBe(true);
    expect(fitsDevice(migInstanceMemoryBytes(h100, "4g.40gb"), llama70b.bytes)).toBe(false);
  });

  it("refuses a device whose memory holds the weights but not the engine's share plus the cache", () => {
    // 38.5 GB of weights on a 40 GiB instance: 36 GiB usable, which the weights alone exceed.
    const need = memoryNeed({ weightBytes: 38.5e9, parameterCount: 35e9, task: "llm" });
    expect(38.5e9).toBeLessThan(migInstanceMemoryBytes(h100, "4g.40gb"));
    expect(fitsDevice(migInstanceMemoryBytes(h100, "4g.40gb"), need.bytes)).toBe(false);
  });

  it("honours a larger stated minimum, and keeps no KV cache for models that are not LLMs", () => {
    expect(memoryNeed({ weightBytes: 1e9, parameterCount: 1e8, task: "embedding", declaredMinBytes: 4e9 }).bytes).toBe(4e9);
    expect(memoryNeed({ weightBytes: 1e9, parameterCount: 1e8, task: "embedding" }).kvBytes).toBe(0);
    expect(needText(memoryNeed({ weightBytes: 16e9, parameterCount: 8e9, task: "llm" }))).toMatch(/weights 14\.9 GiB \+ KV cache for 4096 tokens 0\.5 GiB/);
    expect(kvBytesPerToken(1)).toBe(4096);
  });
});
