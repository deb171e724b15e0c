import { describe, expect, it } from "vitest";
import { businessDaysAfter } from "./business-days.ts";

describe("a standard contract's notice is due 5 business days after signing", () => {
  it("skips the weekend: signed Thursday, due the next Thursday at midnight Turkish time", () => {
    // Thursday 3 December 2026, 15:00 in Istanbul.
    expect(businessDaysAfter(new Date("2026-12-03T12:00:00Z"), 5).toISOString()).toBe("2026-12-10T20:59:59.999Z");
  });

  it("counts by the Turkish date: 23:30 UTC on Friday is already Saturday in Istanbul", () => {
    // Saturday 5 December 02:30 in Istanbul: Monday to Friday of the next week.
    expect(businessDaysAfter(new Date("2026-12-04T23:30:00Z"), 5).toISOString()).toBe("2026-12-11T20:59:59.999Z");
  });
});
