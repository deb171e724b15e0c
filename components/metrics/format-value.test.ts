import { describe, expect, it } from "vitest";
import { exactValue, tickValue } from "./format-value";

describe("chart value formatting", () => {
  it("hover shows exact values with units", () => {
    expect(exactValue(0.41234567, "ms")).toBe("0.412346 ms");
    expect(exactValue(81234.5, "MiB")).toBe("81,234.5 MiB");
    expect(exactValue(99.95, "%")).toBe("99.95 %");
    expect(exactValue(0, "req/s")).toBe("0 req/s");
  });
  it("a gap is no data, not zero", () => {
    expect(exactValue(null, "ms")).toBe("no data");
    expect(exactValue(NaN, "ms")).toBe("no data");
  });
  it("ticks stay short", () => {
    expect(tickValue(1234.5)).toBe("1235");
    expect(tickValue(12.34)).toBe("12.3");
    expect(tickValue(0.123)).toBe("0.12");
  });
});

describe("chart value formatting in Turkish", () => {
  it("writes decimal commas and dotted thousands", () => {
    expect(exactValue(81234.5, "MiB", "tr")).toBe("81.234,5 MiB");
    expect(exactValue(0.41234567, "ms", "tr")).toBe("0,412346 ms");
    expect(exactValue(null, "ms", "tr", "veri yok")).toBe("veri yok");
    expect(tickValue(12.34, "tr")).toBe("12,3");
  });
});
