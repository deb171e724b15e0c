import { describe, expect, it } from "vitest";
import { formatMonth, formatTime } from "./format.ts";

describe("month and time formats", () => {
  it("names a month the way each language abbreviates it, in UTC", () => {
    expect(formatMonth("tr", "2026-12-03T10:00:00Z")).toBe("Ara 2026");
    expect(formatMonth("en", "2026-12-03T10:00:00Z")).toBe("Dec 2026");
    expect(formatMonth("tr", "2026-08-01T00:00:00Z")).toBe("Ağu 2026");
    // The last evening of November in Istanbul is still November in UTC.
    expect(formatMonth("en", "2026-11-30T23:30:00Z")).toBe("Nov 2026");
  });

  it("writes the time of day on a 24-hour clock in UTC, labelled so", () => {
    expect(formatTime("tr", "2026-12-03T00:05:09Z")).toBe("00:05 UTC");
    expect(formatTime("en", "2026-12-03T23:30:59Z", { seconds: true })).toBe("23:30:59 UTC");
    expect(formatTime("en", null)).toBe("—");
  });
});
