import { describe, expect, it } from "vitest";
import { budgetText, burnText, objectiveText, tightestBudget } from "./sla-format";

describe("SLA wording", () => {
  it("states budget left, and by how much it is overspent", () => {
    expect(budgetText(0.8)).toBe("80% left");
    expect(budgetText(0.9995)).toBe("100% left");
    expect(budgetText(-19)).toBe("spent (1900% over)");
    expect(budgetText(null)).toBe("—");
  });
  it("states burn rates as multiples", () => {
    expect(burnText(14.4)).toBe("14×");
    expect(burnText(6)).toBe("6.0×");
    expect(burnText(0.2)).toBe("0.20×");
    expect(burnText(null)).toBe("—");
  });
  it("states objectives in words", () => {
    expect(objectiveText({ kind: "availability", objective: 0.999, thresholdMs: null })).toBe("99.9% without 5xx");
    expect(objectiveText({ kind: "latency", objective: 0.99, thresholdMs: 1000 })).toBe("99% within 1000 ms");
  });
  it("the endpoint's budget is its tightest SLI's", () => {
    expect(tightestBudget({ slis: [{ budgetLeft: 0.9 }, { budgetLeft: 0.3 }, { budgetLeft: null }] as never })).toBe(0.3);
    expect(tightestBudget({ slis: [{ budgetLeft: null }] as never })).toBeNull();
  });
});
