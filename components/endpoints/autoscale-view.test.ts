import { describe, expect, it } from "vitest";
import { autoscaleRows, decisionMarks } from "./autoscale-view.ts";

describe("autoscaling chart data", () => {
  it("draws replicas ready and starting, and the signal against its target, with gaps where the signal was unknown", () => {
    const r = autoscaleRows(
      [
        { at: 1000, ready: 1, starting: 0, value: 0.5 },
        { at: 16000, ready: 1, starting: 2, value: null },
      ],
      "kv_cache_usage",
      0.8,
    );
    expect(r.replicas).toEqual([{ t: 1000, ready: 1, starting: 0 }, { t: 16000, ready: 1, starting: 2 }]);
    expect(r.signal).toEqual([{ t: 1000, signal: 50, target: 80 }, { t: 16000, signal: null, target: 80 }]);
    expect(r.unit).toBe("%");
  });

  it("marks each change of the replica count, not the holds", () => {
    expect(decisionMarks([{ at: "2026-12-04T10:00:00Z", action: "scale_up", desired: 3 }, { at: "2026-12-04T10:01:00Z", action: "hold", desired: 3 }, { at: "2026-12-04T10:09:00Z", action: "scale_down", desired: 1 }])).toEqual([
      { t: Date.parse("2026-12-04T10:00:00Z"), label: "↑3" },
      { t: Date.parse("2026-12-04T10:09:00Z"), label: "↓1" },
    ]);
  });
});
