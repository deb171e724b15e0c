import { describe, expect, it } from "vitest";
import { Prisma } from "../db/generated/client.ts";
import { monthForecast } from "./forecast.ts";

const D = (v: number | string) => new Prisma.Decimal(v);
// 11 December 2026, noon: 20.5 days (492 hours) of the month left.
const now = new Date("2026-12-11T12:00:00Z");

describe("the month's forecast", () => {
  it("adds the recent run rate over the hours left to what is spent", () => {
    const f = monthForecast({ spent: D("1000"), recentCharged: D("1680"), recentHours: 168, budget: null, now });
    expect(f.perHour.toString()).toBe("10");
    expect(f.forecast.toString()).toBe("5920");
    expect(f.budgetReachedAt).toBeNull();
  });

  it("says when the budget runs out at that rate, or that it will not this month", () => {
    const soon = monthForecast({ spent: D("1000"), recentCharged: D("1680"), recentHours: 168, budget: D("2000"), now });
    expect(soon.budgetReachedAt).toEqual(new Date("2026-12-15T16:00:00Z"));
    expect(monthForecast({ spent: D("1000"), recentCharged: D("1680"), recentHours: 168, budget: D("9000"), now }).budgetReachedAt).toBeNull();
    expect(monthForecast({ spent: D("2500"), recentCharged: D("0"), recentHours: 168, budget: D("2000"), now }).budgetReachedAt).toEqual(now);
  });

  it("forecasts a tenant with no recent calls at what it has spent", () => {
    const f = monthForecast({ spent: D("12.34"), recentCharged: D("0"), recentHours: 0, budget: D("100"), now });
    expect([f.forecast.toString(), f.budgetReachedAt]).toEqual(["12.34", null]);
  });
});
