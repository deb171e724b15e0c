import { describe, expect, it } from "vitest";
import { HOURLY_LOAD, WEEKDAY_LOAD, istanbulClock } from "./day-shape.ts";

describe("the demo's day shape", () => {
  it("peaks late morning and mid-afternoon, is quiet at night, lighter at weekends", () => {
    const peak = HOURLY_LOAD.indexOf(Math.max(...HOURLY_LOAD));
    expect(peak).toBeGreaterThanOrEqual(10);
    expect(peak).toBeLessThanOrEqual(15);
    expect(HOURLY_LOAD[3]).toBeLessThan(HOURLY_LOAD[peak]! / 5);
    expect(WEEKDAY_LOAD[0]).toBeLessThan(WEEKDAY_LOAD[3]!);
    expect(WEEKDAY_LOAD[6]).toBeLessThan(WEEKDAY_LOAD[3]!);
  });

  it("reads the clock in Istanbul time (UTC+3)", () => {
    // Saturday 22:30 UTC is Sunday 01:30 in Istanbul.
    expect(istanbulClock(new Date("2026-12-05T22:30:00Z"))).toEqual({ hour: 1.5, weekday: 0 });
  });
});
