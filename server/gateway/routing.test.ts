import { describe, expect, it } from "vitest";
import { chooseVersion, nextWeighted, stickyPoint } from "./routing.ts";
import type { VersionConfig } from "./config.ts";

const version = (id: string, weight: number): VersionConfig => ({ id, label: id, weight, credit: 0, shadowPercent: 0, contextTokens: null, replicas: [{ id: `${id}-r`, url: "http://x", region: "tr-ist", verified: true }] });

describe("weighted routing", () => {
  it("serves each version its weight's share exactly over every 100 requests", () => {
    for (const [a, b] of [[95, 5], [80, 20], [63, 37], [1, 99], [50, 50]] as const) {
      const vs = [version("stable", a), version("canary", b)];
      for (let round = 0; round < 5; round++) {
        const counts = { stable: 0, canary: 0 } as Record<string, number>;
        for (let i = 0; i < 100; i++) counts[nextWeighted(vs, () => true)!.id]!++;
        expect(counts).toEqual({ stable: a, canary: b });
      }
    }
  });

  it("interleaves rather than sending a burst to one version", () => {
    const vs = [version("a", 50), version("b", 50)];
    const seq = Array.from({ length: 6 }, () => nextWeighted(vs, () => true)!.id).join("");
    expect(seq).toBe("ababab");
  });

  it("skips versions at 0% or with no usable replica, and says when none can serve", () => {
    const vs = [version("a", 0), version("b", 70), version("c", 30)];
    const picks = new Set(Array.from({ length: 50 }, () => nextWeighted(vs, (v) => v.id !== "c")!.id));
    expect(picks).toEqual(new Set(["b"]));
    expect(nextWeighted(vs, () => false)).toBeNull();
  });

  it("keeps a sticky caller on one version, and spreads callers by weight", () => {
    const vs = [version("a", 80), version("b", 20)];
    const one = chooseVersion(vs, stickyPoint("user-42"), () => true)!.id;
    for (let i = 0; i < 10; i++) expect(chooseVersion(vs, stickyPoint("user-42"), () => true)!.id).toBe(one);
    let b = 0;
    for (let i = 0; i < 10_000; i++) if (chooseVersion(vs, stickyPoint(`user-${i}`), () => true)!.id === "b") b++;
    expect(b / 10_000).toBeGreaterThan(0.17);
    expect(b / 10_000).toBeLessThan(0.23);
  });
});

describe("round-robin state across config reloads", () => {
  const cfg = (revision: number, weights: [number, number]) => ({
    loadedAt: 0,
    keysByHash: new Map(),
    tenants: new Map(),
    endpointsById: new Map(),
    keys: { standard: null, special: null },
    endpointsBySlug: new Map([["e", { id: "e", slug: "e", task: "llm", sticky: false, regionConstraint: null, revision, slo: { latencyMs: null, ttftMs: null }, replicaChoice: "least_outstanding" as const, fallbackIds: [], classes: [], versions: [version("a", weights[0]), version("b", weights[1])] }]]),
  });

  it("keeps credits through a reload that did not change the weights, and starts afresh when they changed", async () => {
    const { carryRoutingState } = await import("./config.ts");
    const counts: Record<string, number> = { a: 0, b: 0 };
    let current = cfg(1, [80, 20]);
    for (let i = 0; i < 100; i++) {
      // A reload every 7 requests (keys used, replicas ready…) must not skew the split.
      if (i % 7 === 6) {
        const next = cfg(1, [80, 20]);
        carryRoutingState(current, next);
        current = next;
      }
      counts[nextWeighted(current.endpointsBySlug.get("e")!.versions, () => true)!.id]!++;
    }
    expect(counts).toEqual({ a: 80, b: 20 });
    const changed = cfg(2, [50, 50]);
    carryRoutingState(current, changed);
    expect(changed.endpointsBySlug.get("e")!.versions.map((v) => v.credit)).toEqual([0, 0]);
  });
});
