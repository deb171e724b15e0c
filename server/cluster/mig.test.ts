import { describe, expect, it } from "vitest";
import { migComputeSlices, migInstanceMemoryBytes, migProfiles, supportsMig, validateMigLayout } from "./mig.ts";

const L = (...xs: [string, number][]) => xs.map(([profile, startSlot]) => ({ profile, startSlot }));

describe("MIG layouts", () => {
  it("accepts the valid mixes NVIDIA documents", () => {
    for (const layout of [L(["4g.40gb", 0], ["3g.40gb", 4]), L(["3g.40gb", 0], ["3g.40gb", 4]), L(["3g.40gb", 0], ["2g.20gb", 4], ["1g.10gb", 6]), L(["2g.20gb", 0], ["2g.20gb", 2], ["2g.20gb", 4], ["1g.10gb", 6]), L(...[0, 1, 2, 3, 4, 5, 6].map((s) => ["1g.10gb", s] as [string, number])), L(["7g.80gb", 0])]) {
      expect(validateMigLayout(80, layout)).toEqual([]);
    }
  });
  it("refuses overlaps, bad start slots, too many compute slices and unknown profiles, saying why", () => {
    expect(validateMigLayout(80, L(["4g.40gb", 0], ["3g.40gb", 2]))[0]).toMatch(/can start only at slot 0, 4/);
    expect(validateMigLayout(80, L(["3g.40gb", 0], ["2g.20gb", 2])).join()).toMatch(/overlaps 3g\.40gb@0/);
    expect(validateMigLayout(80, L(["4g.40gb", 0], ["4g.40gb", 4])).join()).toMatch(/at most 1 × 4g\.40gb/);
    expect(validateMigLayout(80, L(["7g.80gb", 0], ["1g.10gb", 7])).join()).toMatch(/need 8 compute slices|can start only/);
    expect(validateMigLayout(80, L(["3g.20gb", 0]))[0]).toMatch(/not a profile of this GPU/);
  });
  it("names profiles after the card's memory and sizes instances by their memory slots", () => {
    expect(migProfiles(40).map((p) => p.name)).toEqual(["1g.5gb", "1g.10gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"]);
    expect(migInstanceMemoryBytes(80 * 2 ** 30, "3g.40gb")).toBe(40 * 2 ** 30);
    expect(migComputeSlices("3g.40gb")).toBe(3);
    expect(supportsMig("NVIDIA H100 80GB HBM3")).toBe(true);
    expect(supportsMig("NVIDIA L40S")).toBe(false);
  });
});
