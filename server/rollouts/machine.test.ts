import { describe, expect, it } from "vitest";
import { findBreach, InvalidTransition, transition, weightsAfter, type Analysis, type PlanSnapshot, type Slo, type VersionStats } from "./machine.ts";

const slo: Slo = { availabilityPct: 99.9, p99LatencyMs: 2000, ttftMs: 500 };
const healthy: VersionStats = { requests: 500, errorRate: 0, p95Ms: 120, ttftP95Ms: 60 };
const ok: Analysis = { canary: healthy, stable: healthy };
const T0 = 1_000_000;

function plan(over: Partial<PlanSnapshot> = {}): PlanSnapshot {
  return {
    state: "running",
    stepIndex: 0,
    stepStartedAt: T0,
    pausedAt: null,
    steps: [
      { weight: 5, holdSeconds: 600 },
      { weight: 20, holdSeconds: 600 },
      { weight: 50, holdSeconds: 600 },
      { weight: 100, holdSeconds: 1 },
    ],
    analysis: { windowSeconds: 300, latencyMarginPct: 20, latencyMarginMs: 10, errorMarginPoints: 1, minRequests: 20 },
    ...over,
  };
}

const tick = (now: number, analysis: Analysis | null = ok) => ({ type: "tick" as const, now, analysis, slo });

describe("rollout state machine", () => {
  it("holds a step until its time is up, then advances to the next weight", () => {
    const held = transition(plan(), tick(T0 + 599_000));
    expect(held.decision.kind).toBe("hold");
    expect(held.next).toEqual(plan());
    const moved = transition(plan(), tick(T0 + 600_000));
    expect(moved.decision).toEqual({ kind: "step", stepIndex: 1, weight: 20, why: "healthy" });
    expect(moved.next.stepIndex).toBe(1);
    expect(moved.next.stepStartedAt).toBe(T0 + 600_000);
    expect(weightsAfter(moved.decision)).toEqual({ canary: 20, stable: 80 });
  });

  it("walks a healthy canary through every step to the promote", () => {
    let s = plan();
    let now = T0;
    const seen: string[] = [];
    while (s.state === "running") {
      now += 600_000;
      const r = transition(s, tick(now));
      seen.push(r.decision.kind === "step" ? `step:${r.decision.weight}` : r.decision.kind);
      s = r.next;
    }
    expect(seen).toEqual(["step:20", "step:50", "promote"]);
    expect(s.state).toBe("succeeded");
    expect(weightsAfter({ kind: "promote", why: "healthy" })).toEqual({ canary: 100, stable: 0 });
  });

  it("rolls back on a breach at any time during a step, naming the metric, value and threshold", () => {
    const failing: Analysis = { canary: { ...healthy, errorRate: 0.05 }, stable: healthy };
    const r = transition(plan({ stepIndex: 1 }), tick(T0 + 10_000, failing));
    expect(r.next.state).toBe("rolled_back");
    expect(r.decision).toMatchObject({ kind: "rollback", why: "breach", breach: { metric: "error_rate", value: 0.05, against: "slo" } });
    if (r.decision.kind === "rollback") expect(r.decision.breach!.threshold).toBeCloseTo(0.011, 6);
    expect(weightsAfter(r.decision)).toEqual({ canary: 0, stable: 100 });
  });

  it("judges latency against the SLO and against the stable version's, with the margin", () => {
    const cfg = plan().analysis;
    expect(findBreach({ canary: { ...healthy, p95Ms: 2500 }, stable: null }, slo, cfg)).toEqual({ metric: "p95_latency_ms", value: 2500, threshold: 2000, against: "slo" });
    expect(findBreach({ canary: { ...healthy, p95Ms: 140 }, stable: healthy }, slo, cfg)).toBeNull(); // +17% < 20%
    expect(findBreach({ canary: { ...healthy, p95Ms: 150 }, stable: healthy }, slo, cfg)).toMatchObject({ metric: "p95_latency_ms", against: "stable", threshold: 144 });
    expect(findBreach({ canary: { ...healthy, ttftP95Ms: 600 }, stable: healthy }, slo, cfg)).toMatchObject({ metric: "ttft_p95_ms", against: "slo" });
    // Small latencies: 8 ms against 4 ms is +100% but within the absolute margin of 10 ms.
    const fast = { ...healthy, p95Ms: 4, ttftP95Ms: 2 };
    expect(findBreach({ canary: { ...fast, p95Ms: 8 }, stable: fast }, slo, cfg)).toBeNull();
    expect(findBreach({ canary: { ...fast, p95Ms: 15 }, stable: fast }, slo, cfg)).toMatchObject({ metric: "p95_latency_ms", threshold: 14 });
  });

  it("does not blame the canary for errors the stable version shows too", () => {
    const both = { ...healthy, errorRate: 0.03 };
    expect(findBreach({ canary: both, stable: both }, slo, plan().analysis)).toBeNull();
    expect(findBreach({ canary: { ...healthy, errorRate: 0.05 }, stable: both }, slo, plan().analysis)).toMatchObject({ metric: "error_rate", against: "stable" });
  });

  it("gives no verdict on too few canary requests: no breach, and no advance", () => {
    const few: Analysis = { canary: { ...healthy, requests: 5, errorRate: 0.2 }, stable: healthy };
    expect(transition(plan(), tick(T0 + 1000, few)).decision.kind).toBe("hold");
    const late = transition(plan(), tick(T0 + 700_000, few));
    expect(late.decision).toMatchObject({ kind: "hold", note: expect.stringContaining("waiting for 20 canary requests") });
    expect(late.next.stepIndex).toBe(0);
  });

  it("never advances blind: without metrics it holds", () => {
    const r = transition(plan(), tick(T0 + 10_000_000, null));
    expect(r.decision).toMatchObject({ kind: "hold", note: expect.stringContaining("metrics unavailable") });
    expect(r.next).toEqual(plan());
  });

  it("pauses and resumes, counting only running time toward the hold", () => {
    const paused = transition(plan(), { type: "pause", now: T0 + 100_000 });
    expect(paused.next).toMatchObject({ state: "paused", pausedAt: T0 + 100_000 });
    // A paused plan ignores time and metrics, even a breach.
    expect(transition(paused.next, tick(T0 + 5_000_000, { canary: { ...healthy, errorRate: 0.5 }, stable: healthy })).next).toEqual(paused.next);
    const resumed = transition(paused.next, { type: "resume", now: T0 + 400_000 });
    expect(resumed.next).toMatchObject({ state: "running", pausedAt: null, stepStartedAt: T0 + 300_000 });
    expect(transition(resumed.next, tick(T0 + 899_000)).decision.kind).toBe("hold");
    expect(transition(resumed.next, tick(T0 + 900_000)).decision.kind).toBe("step");
  });

  it("lets an operator advance (also from paused), abort or roll back", () => {
    expect(transition(plan(), { type: "advance", now: T0 + 1 }).decision).toEqual({ kind: "step", stepIndex: 1, weight: 20, why: "operator" });
    const fromPaused = transition(plan({ state: "paused", pausedAt: T0 }), { type: "advance", now: T0 + 5 });
    expect(fromPaused.next).toMatchObject({ state: "running", stepIndex: 1, pausedAt: null });
    expect(transition(plan({ stepIndex: 2 }), { type: "advance", now: T0 }).decision).toEqual({ kind: "promote", why: "operator" });
    expect(transition(plan(), { type: "abort", now: T0 }).next.state).toBe("aborted");
    expect(transition(plan({ state: "paused" }), { type: "rollback", now: T0 }).decision).toEqual({ kind: "rollback", breach: null, why: "operator" });
  });

  it("refuses transitions that make no sense, with a message", () => {
    expect(() => transition(plan(), { type: "resume", now: T0 })).toThrow(InvalidTransition);
    expect(() => transition(plan({ state: "paused" }), { type: "pause", now: T0 })).toThrow("Cannot pause a rollout that is paused.");
    for (const state of ["succeeded", "rolled_back", "aborted"] as const) {
      for (const type of ["pause", "resume", "advance", "abort", "rollback"] as const) {
        expect(() => transition(plan({ state }), { type, now: T0 })).toThrow(InvalidTransition);
      }
      expect(transition(plan({ state }), tick(T0 + 1e9)).next.state).toBe(state);
    }
  });

  it("carries on after a restart from what the database held", () => {
    // Step 2 began 9 minutes before the control plane went down; it comes back 3 minutes later.
    const before = plan({ stepIndex: 1, stepStartedAt: T0 });
    const persisted = JSON.parse(JSON.stringify(before)) as PlanSnapshot;
    const afterRestart = transition(persisted, tick(T0 + 12 * 60_000));
    expect(afterRestart.decision).toEqual({ kind: "step", stepIndex: 2, weight: 50, why: "healthy" });
    // And a paused plan stays paused across the restart, keeping its clock.
    const paused = JSON.parse(JSON.stringify(plan({ state: "paused", pausedAt: T0 + 60_000 }))) as PlanSnapshot;
    expect(transition(paused, tick(T0 + 1e8)).next).toEqual(paused);
    expect(transition(paused, { type: "resume", now: T0 + 120_000 }).next.stepStartedAt).toBe(T0 + 60_000);
  });
});
