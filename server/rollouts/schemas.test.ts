import { describe, expect, it } from "vitest";
import { setWeightsInput } from "./schemas.ts";

const w = (...weights: number[]) => ({ endpointId: "e", expectedRevision: 1, weights: weights.map((weight, i) => ({ endpointVersionId: `v${i}`, weight })) });

describe("traffic weights", () => {
  it("must sum to exactly 100", () => {
    expect(setWeightsInput.safeParse(w(95, 5)).success).toBe(true);
    expect(setWeightsInput.safeParse(w(100)).success).toBe(true);
    const bad = setWeightsInput.safeParse(w(60, 30));
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["weights"]);
  });
  it("are whole percents between 0 and 100", () => {
    expect(setWeightsInput.safeParse(w(99.5, 0.5)).success).toBe(false);
    expect(setWeightsInput.safeParse(w(110, -10)).success).toBe(false);
  });
});
