import { describe, expect, it } from "vitest";
import { decide, type PolicyView, type TickView } from "./decide.ts";

const policy: PolicyView = { minReplicas: 1, maxReplicas: 8, signal: "waiting_per_replica", target: 4, scaleUpWindowSeconds: 0, scaleDownWindowSeconds: 60 };
const tick = (over: Partial<TickView>): TickView => ({ now: 1_000_000, ready: 2, starting: 0, value: 4, wake: false, placeable: 10, canaryJudging: false, history: [], ...over });

/** The tick before asked for `desired` at `from` replicas too: a second reading over the band. */
const seen = (desired: number, from: number): TickView["history"] => [{ at: 999_000, desired, from }];

/** Runs ticks one second apart, carrying the history, and returns each decision. */
function run(p: PolicyView, ticks: Partial<TickView>[]) {
  let history: TickView["history"] = [];
  return ticks.map((t, i) => {
    const d = decide(p, tick({ ...t, now: 1_000_000 + i * 1000, history }));
    history = d.history;
    return d;
  });
}

describe("autoscaling decisions", () => {
  it("adds what the signal asks for, and counts replicas still starting as capacity (no pile-up during a cold start)", () => {
    const up = decide(policy, tick({ ready: 2, value: 12, history: seen(6, 2) }));
    expect(up).toMatchObject({ action: "scale_up", count: 4, desired: 6 });
    expect(up.reason).toMatch(/2 → 6: waiting requests per replica 12\.00 \(target 4\.00\)/);
    // Next tick: the 4 are loading and the queue has not moved yet. Nothing more starts.
    expect(decide(policy, tick({ ready: 2, starting: 4, value: 12 }))).toMatchObject({ action: "hold", desired: 6 });
    // A starting replica is never stopped because the signal fell meanwhile.
    expect(decide(policy, tick({ ready: 2, starting: 4, value: 0, history: [] })).action).toBe("hold");
  });

  it("starts a replica on two readings in a row over the band at the same count, not on one", () => {
    // One burst over the band between two readings inside it: nothing starts.
    expect(run(policy, [{ ready: 2, value: 5 }, { ready: 2, value: 4 }, { ready: 2, value: 4.2 }]).map((d) => d.action)).toEqual(["hold", "hold", "hold"]);
    const twice = run(policy, [{ ready: 2, value: 5 }, { ready: 2, value: 5 }]);
    expect(twice[0]!.reason).toMatch(/on one reading; waiting for a second at 2/);
    expect(twice[1]).toMatchObject({ action: "scale_up", count: 1, desired: 3 });
    // A reading over the band at another count (before the last replica came up) does not count as the first.
    expect(decide(policy, tick({ ready: 3, value: 5, history: seen(4, 2) })).action).toBe("hold");
  });

  it("stays within 10% of the target", () => {
    expect(decide(policy, tick({ ready: 3, value: 4.3 })).action).toBe("hold");
  });

  it("scales down only after the signal stayed low for the whole scale-down window, so a dip does not flap", () => {
    const low = Array.from({ length: 61 }, () => ({ ready: 4, value: 0.8 }));
    const ds = run(policy, [...low.slice(0, 30), { ready: 4, value: 4 }, ...low]);
    // A new policy waits out a whole window first; the one busy second at t=30 keeps 4 for the 60 s after it.
    expect(ds.slice(0, 91).filter((d) => d.action !== "hold")).toEqual([]);
    expect(ds[91]).toMatchObject({ action: "scale_down", count: 3, desired: 1 });
    expect(ds[91]!.reason).toMatch(/4 → 1: .* for the whole 60 s scale-down window/);
  });

  it("does not change direction under a steady load whose calls run slower in a fuller batch", () => {
    // 13 calls/s of 64 tokens on the simulator's engine (12 ms a token, 3% slower per extra
    // sequence in the batch): in flight per replica by Little's law at each replica count.
    const inFlight: Record<number, number> = { 1: 13.83, 2: 5.7, 3: 3.59 };
    const p = { ...policy, signal: "in_flight_per_replica" as const, target: 12, scaleDownWindowSeconds: 30 };
    let ready = 2;
    let history: TickView["history"] = [];
    const moves: string[] = [];
    for (let s = 0; s < 600; s++) {
      const d = decide(p, tick({ now: 1_000_000 + s * 1000, ready, value: inFlight[ready]!, history }));
      history = d.history;
      if (d.action !== "hold") moves.push(`${ready} → ${d.desired}`);
      ready = d.desired;
    }
    // Aimed at the target, 2 replicas at 5.7 (under the band) went to 1, whose 13.83 (over it)
    // brought back 2 the next second: down and up again every 31 s for as long as the load held.
    expect(moves).toEqual([]);
  });

  it("waits out a scale-up window, then adds", () => {
    const p = { ...policy, scaleUpWindowSeconds: 5 };
    const ds = run(p, Array.from({ length: 7 }, () => ({ ready: 2, value: 8 })));
    expect(ds.slice(0, 5).map((d) => d.action)).toEqual(["hold", "hold", "hold", "hold", "hold"]);
    expect(ds[2]!.reason).toMatch(/waiting out the 5 s scale-up window/);
    expect(ds[5]).toMatchObject({ action: "scale_up", desired: 4 });
  });

  it("keeps the warm floor and the ceiling whatever the signal says", () => {
    expect(decide(policy, tick({ ready: 0, value: null }))).toMatchObject({ action: "scale_up", count: 1, reason: expect.stringMatching(/below the warm floor of 1/) });
    expect(decide(policy, tick({ ready: 8, value: 100 }))).toMatchObject({ action: "hold" });
    expect(decide({ ...policy, maxReplicas: 3 }, tick({ ready: 5, value: 4 }))).toMatchObject({ action: "scale_down", count: 2, reason: expect.stringMatching(/above the ceiling of 3/) });
  });

  it("scales to zero and back: calls held at the gateway start one replica", () => {
    const zero = { ...policy, minReplicas: 0, scaleDownWindowSeconds: 0 };
    expect(decide(zero, tick({ ready: 1, value: 0 }))).toMatchObject({ action: "scale_down", desired: 0 });
    expect(decide(zero, tick({ ready: 0, value: null }))).toMatchObject({ action: "hold", desired: 0 });
    expect(decide(zero, tick({ ready: 0, value: null, wake: true }))).toMatchObject({ action: "scale_up", count: 1, reason: expect.stringMatching(/calls are waiting at the gateway/) });
    expect(decide(zero, tick({ ready: 0, starting: 1, value: null, wake: true })).action).toBe("hold");
  });

  it("stops at what the pool can hold, and says so", () => {
    const d = decide(policy, tick({ ready: 2, value: 16, placeable: 3, history: seen(8, 2) }));
    expect(d).toMatchObject({ action: "scale_up", count: 3, desired: 5, poolLimited: true, reason: expect.stringMatching(/wanted 8, the pool holds only 3 more/) });
    expect(decide(policy, tick({ ready: 2, value: 16, placeable: 0, history: seen(8, 2) }))).toMatchObject({ action: "hold", poolLimited: true, reason: expect.stringMatching(/pool can place no more/) });
  });

  it("does not change a version an automatic canary is judging, except to keep its floor or wake it", () => {
    expect(decide(policy, tick({ ready: 2, value: 16, canaryJudging: true, history: seen(8, 2) }))).toMatchObject({ action: "hold", reason: expect.stringMatching(/automatic canary is judging/) });
    expect(decide({ ...policy, scaleDownWindowSeconds: 0 }, tick({ ready: 4, value: 0.5, canaryJudging: true })).action).toBe("hold");
    expect(decide(policy, tick({ ready: 0, value: null, canaryJudging: true })).action).toBe("scale_up");
  });

  it("changes nothing while Prometheus has no answer", () => {
    expect(decide(policy, tick({ ready: 3, value: null })).action).toBe("hold");
  });
});
