import { describe, expect, it } from "vitest";
import { assessSli, worst } from "./sla-status.ts";
import { DEFAULT_SLO_RULE_OPTIONS as opts } from "./slo-rules.ts";

const availability = { kind: "availability" as const, objective: 0.999 };
const steady = (r: number) => ({ "5m": r, "30m": r, "1h": r, "6h": r, "3d": r, "30d": r });

describe("SLA status of one SLI", () => {
  it("is green with budget left and no burn", () => {
    const s = assessSli(availability, steady(0.0002), [], opts);
    expect(s.status).toBe("green");
    expect(s.budgetLeft).toBeCloseTo(0.8);
    expect(s.burnRate).toBeCloseTo(0.2);
    expect(s.alerts).toEqual([]);
  });
  it("is red when both windows of a page alert burn, before Prometheus' `for` has passed", () => {
    const s = assessSli(availability, { ...steady(0.0001), "5m": 0.05, "1h": 0.02 }, [], opts);
    expect(s.status).toBe("red");
    expect(s.alerts).toEqual([{ name: "KuleSloBurnFast", severity: "page", state: "burning" }]);
    expect(s.burnRate).toBeCloseTo(20);
  });
  it("is not red when only the long window burns (the spike is over)", () => {
    const s = assessSli(availability, { ...steady(0.0001), "1h": 0.02 }, [], opts);
    expect(s.alerts).toEqual([]);
    expect(s.status).toBe("green");
  });
  it("is amber on a ticket-level burn or under a quarter of budget left", () => {
    expect(assessSli(availability, { ...steady(0.0001), "3d": 0.0015, "6h": 0.0012 }, [], opts).status).toBe("amber");
    expect(assessSli(availability, steady(0.0008), [], opts).status).toBe("amber");
  });
  it("is red once the budget is spent, even with no burn now", () => {
    expect(assessSli(availability, { ...steady(0), "30d": 0.0011 }, [], opts).status).toBe("red");
  });
  it("takes Prometheus' alert state (pending, firing) over its own reading", () => {
    const s = assessSli(availability, steady(0.0001), [{ name: "KuleSloBurnFast", state: "pending" }], opts);
    expect(s.alerts).toEqual([{ name: "KuleSloBurnFast", severity: "page", state: "pending" }]);
    expect(s.status).toBe("amber");
    expect(assessSli(availability, steady(0.0001), [{ name: "KuleSloBurnFast", state: "firing" }], opts).status).toBe("red");
  });
  it("says no data without traffic rather than green", () => {
    expect(assessSli(availability, {}, [], opts)).toMatchObject({ status: "no-data", budgetLeft: null, burnRate: null });
  });
  it("an endpoint is as bad as its worst SLI", () => {
    expect(worst(["green", "red", "amber"])).toBe("red");
    expect(worst(["no-data", "green"])).toBe("green");
    expect(worst([])).toBe("no-data");
  });
});
