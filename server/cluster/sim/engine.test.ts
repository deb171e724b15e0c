import { describe, expect, it } from "vitest";
import { BatchingEngine } from "./engine.ts";
import { LLM_DEFAULTS } from "./latency-model.ts";
import { PrefixCache } from "./prefix-cache.ts";
import { nvmlInstanceId } from "./dcgm-exporter.ts";

const GiB = 2 ** 30;
const fast = { ...LLM_DEFAULTS, scale: 0.01 };

describe("the batching engine, as vLLM's metrics see it", () => {
  it("reports every interval between a sequence's tokens, not one mean per request", async () => {
    const engine = new BatchingEngine(fast, { bytesPerToken: 1, capacityBytes: 1e9 });
    const intervals: number[] = [];
    engine.observer = { interval: (ms) => intervals.push(ms), preempted: () => {} };
    await Promise.all([engine.submit({ promptTokens: 10, maxTokens: 5 }), engine.submit({ promptTokens: 10, maxTokens: 3 })]);
    expect(intervals).toHaveLength(4 + 2);
  });

  it("preempts the newest sequence when the KV cache overflows, and finishes it after the others", async () => {
    // Room for 100 tokens: two 40-token prompts fit, and overflow as they generate.
    const engine = new BatchingEngine(fast, { bytesPerToken: 1, capacityBytes: 100 });
    let preempted = 0;
    engine.observer = { interval: () => {}, preempted: () => preempted++ };
    const order: string[] = [];
    const [a, b] = await Promise.all(
      ["a", "b"].map((id) =>
        engine.submit({ promptTokens: 40, maxTokens: 30 }).then((r) => {
          order.push(id);
          return r;
        }),
      ),
    );
    expect(preempted).toBeGreaterThan(0);
    expect(b!.preemptions).toBeGreaterThan(0);
    expect(a!.preemptions).toBe(0);
    expect(order).toEqual(["a", "b"]);
    // Resumed where it stopped: every token is still generated once.
    expect(b!.tokens).toBe(30);
  });
});

describe("the prefix cache", () => {
  it("serves the leading 16-token blocks an earlier prompt computed, never the last token", () => {
    const cache = new PrefixCache();
    const prompt = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ");
    expect(cache.lookup(prompt)).toMatchObject({ promptTokens: 40, cachedTokens: 0 });
    expect(cache.lookup(prompt)).toMatchObject({ promptTokens: 40, cachedTokens: 32 });
    // Same first block, different second: one block served.
    expect(cache.lookup(prompt.replace("w20", "x")).cachedTokens).toBe(16);
    expect(new PrefixCache().lookup("short prompt").cachedTokens).toBe(0);
  });

  it("shares no block between prompts of different cache_salt, as vLLM salts the first block's hash", () => {
    const cache = new PrefixCache();
    const prompt = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ");
    cache.lookup(prompt, "tenant-a");
    expect(cache.lookup(prompt, "tenant-b").cachedTokens).toBe(0);
    expect(cache.lookup(prompt).cachedTokens).toBe(0);
    expect(cache.lookup(prompt, "tenant-a").cachedTokens).toBe(32);
  });

  it("holds only as many blocks as the KV cache, forgetting the least recently used", () => {
    const cache = new PrefixCache(4); // 64 tokens
    const prompt = (tag: string) => Array.from({ length: 33 }, (_, i) => `${tag}${i}`).join(" "); // 2 full blocks each
    cache.lookup(prompt("a"));
    cache.lookup(prompt("b"));
    expect(cache.lookup(prompt("a")).cachedTokens).toBe(32);
    cache.lookup(prompt("c")); // evicts b, the least recently used
    expect(cache.lookup(prompt("b")).cachedTokens).toBe(0);
  });

  it("counts a prompt block that running sequences share once in KV-cache usage, as vLLM does", () => {
    const engine = new BatchingEngine(LLM_DEFAULTS, { bytesPerToken: 1, capacityBytes: 10_000 });
    const system = Array.from({ length: 100 }, (_, i) => `b${i}`); // a 1,600-token system prompt
    const abort = new AbortController();
    void engine.submit({ promptTokens: 1610, blocks: system, maxTokens: 50, signal: abort.signal });
    void engine.submit({ promptTokens: 1620, blocks: system, maxTokens: 50, signal: abort.signal });
    // 1,600 shared + 10 + 20 of their own, not 3,230.
    expect(engine.tokensInFlight).toBe(1630);
    void engine.submit({ promptTokens: 1600, blocks: system.map((b) => `other ${b}`), maxTokens: 50, signal: abort.signal });
    expect(engine.tokensInFlight).toBe(3230);
    abort.abort();
  });

  it("makes prefill pay only for the uncached tokens", async () => {
    const engine = new BatchingEngine(LLM_DEFAULTS, { bytesPerToken: 1, capacityBytes: 1e9 });
    const cold = await engine.submit({ promptTokens: 3000, maxTokens: 1 });
    const warm = await engine.submit({ promptTokens: 3000, cachedTokens: 2992, maxTokens: 1 });
    // 25 + 3000 × 0.15 = 475 ms cold against 25 + 8 × 0.15 ≈ 26 ms warm (wide margins: a busy machine delays timers).
    expect(cold.ttftMs).toBeGreaterThan(400);
    expect(warm.ttftMs).toBeLessThan(cold.ttftMs / 4);
  });
});

describe("dcgm-exporter's GPU instance ids", () => {
  it("follow NVML's placement ids, not 1..n", () => {
    expect(nvmlInstanceId(80 * GiB, { profile: "3g.40gb", startSlot: 4 })).toBe(1);
    expect(nvmlInstanceId(80 * GiB, { profile: "3g.40gb", startSlot: 0 })).toBe(2);
    expect(nvmlInstanceId(80 * GiB, { profile: "2g.20gb", startSlot: 0 })).toBe(3);
    expect(nvmlInstanceId(80 * GiB, { profile: "1g.10gb", startSlot: 2 })).toBe(9);
    expect(nvmlInstanceId(80 * GiB, { profile: "7g.80gb", startSlot: 0 })).toBe(0);
  });
});
