import { describe, expect, it } from "vitest";
import { createTranslator } from "use-intl";
import { MESSAGES } from "@/server/shared/i18n/messages";
import { budgetText, burnText, objectiveText, tightestBudget } from "./sla-format";

const t = createTranslator({ locale: "en", messages: MESSAGES.en, namespace: "metrics.sla" });
const tr = createTranslator({ locale: "tr", messages: MESSAGES.tr, namespace: "metrics.sla" });

describe("SLA wording", () => {
  it("states budget left, and by how much it is overspent", () => {
    expect(budgetText(0.8, t)).toBe("80% left");
    expect(budgetText(0.9995, t)).toBe("100% left");
    expect(budgetText(-19, t)).toBe("spent (1900% over)");
    expect(budgetText(null, t)).toBe("—");
    expect(budgetText(0.8, tr)).toBe("%80 kaldı");
  });
  it("states burn rates as multiples", () => {
    expect(burnText(14.4, "en")).toBe("14×");
    expect(burnText(6, "en")).toBe("6.0×");
    expect(burnText(0.2, "en")).toBe("0.20×");
    expect(burnText(0.2, "tr")).toBe("0,20×");
    expect(burnText(null, "en")).toBe("—");
  });
  it("states objectives in words", () => {
    expect(objectiveText({ kind: "availability", objective: 0.999, thresholdMs: null }, t, "en")).toBe("99.9% without 5xx");
    expect(objectiveText({ kind: "latency", objective: 0.99, thresholdMs: 1000 }, t, "en")).toBe("99% within 1000 ms");
    expect(objectiveText({ kind: "availability", objective: 0.999, thresholdMs: null }, tr, "tr")).toBe("%99,9 5xx olmadan");
  });
  it("the endpoint's budget is its tightest SLI's", () => {
    expect(tightestBudget({ slis: [{ budgetLeft: 0.9 }, { budgetLeft: 0.3 }, { budgetLeft: null }] as never })).toBe(0.3);
    expect(tightestBudget({ slis: [{ budgetLeft: null }] as never })).toBeNull();
  });
});
