import { describe, expect, it } from "vitest";
import { createTranslator } from "use-intl";
import { MESSAGES } from "@/server/shared/i18n/messages";
import { heatColor, heatLabel, nodeHeat } from "./heat";

const t = createTranslator({ locale: "en", messages: MESSAGES.en, namespace: "cluster.heat" });
const tr = createTranslator({ locale: "tr", messages: MESSAGES.tr, namespace: "cluster.heat" });

describe("the heat map's adapters", () => {
  it("colours idle pale blue, saturated red, and no reading grey, clamping what is out of range", () => {
    expect(heatColor(null)).toBe("#e2e6ec");
    expect(heatColor(0)).toBe("hsl(200, 55%, 88%)");
    expect(heatColor(100)).toBe("hsl(0, 80%, 48%)");
    expect(heatColor(250)).toBe(heatColor(100));
  });

  it("names a cell by its GPU and reading, and sums a node without counting GPUs that report nothing", () => {
    expect(heatLabel("gpu-llm-01", 3, 41.6, t)).toBe("GPU 3 of gpu-llm-01: 42% busy");
    expect(heatLabel("gpu-llm-01", 3, null, t)).toBe("GPU 3 of gpu-llm-01: no data");
    expect(heatLabel("gpu-llm-01", 3, 41.6, tr)).toBe("gpu-llm-01 düğümünün GPU 3: %42 meşgul");
    expect(nodeHeat([10, null, 30])).toEqual({ mean: 20, peak: 30 });
    expect(nodeHeat([null, null])).toEqual({ mean: null, peak: null });
  });
});
