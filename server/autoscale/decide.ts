/**
 * The autoscaler's decision, as a pure function of what one tick sees (the loop in loop.ts reads
 * it from the database and Prometheus, and carries it out). In the manner of Kubernetes' HPA:
 * past a 10% tolerance band around the target, desired = ceil(ready × value / edge), the band's
 * edge it crossed (so a move lands inside the band rather than where the next reading undoes it); a
 * recommendation takes effect only once it has held for its stabilization window (the largest of
 * the scale-down window's recommendations, the smallest of the scale-up window's), so a noisy
 * signal does not flap.
 */
export type AutoscaleSignalKind = "waiting_per_replica" | "kv_cache_usage" | "in_flight_per_replica";

export interface PolicyView {
  minReplicas: number;
  maxReplicas: number;
  signal: AutoscaleSignalKind;
  target: number;
  scaleUpWindowSeconds: number;
  scaleDownWindowSeconds: number;
}

export interface Recommendation {
  at: number;
  desired: number;
  /** Replicas (ready + starting) when it was made; absent in histories written before it was kept. */
  from?: number;
}

export interface TickView {
  now: number;
  /** Replicas serving, and replicas still starting (pending or loading): capacity on the way. */
  ready: number;
  starting: number;
  /** The signal per ready replica (KV-cache use: 0–1); null when Prometheus has no answer. */
  value: number | null;
  /** A gateway holds calls for the version (scale from zero). */
  wake: boolean;
  /** New replicas the pool can still place (memory rule, region, free devices). */
  placeable: number;
  /** An automatic canary is judging this version against another (or it is the stable one). */
  canaryJudging: boolean;
  history: Recommendation[];
}

export type Action = "scale_up" | "scale_down" | "hold";

export interface Decision {
  action: Action;
  /** Replicas to start (scale_up) or stop (scale_down). */
  count: number;
  /** The replica count the loop aims at (ready + starting after the action). */
  desired: number;
  /** What the signal alone asked for, before windows and limits. */
  recommended: number;
  reason: string;
  /** The pool cannot hold what the version needs: said on the page and in the audit log. */
  poolLimited: boolean;
  history: Recommendation[];
}

const TOLERANCE = 0.1;

const SIGNAL_TEXT: Record<AutoscaleSignalKind, string> = {
  waiting_per_replica: "waiting requests per replica",
  kv_cache_usage: "KV-cache use",
  in_flight_per_replica: "requests in flight per replica",
};

export function signalText(p: Pick<PolicyView, "signal" | "target">, value: number | null): string {
  const fmt = (x: number) => (p.signal === "kv_cache_usage" ? `${(x * 100).toFixed(0)}%` : x.toFixed(2));
  return `${SIGNAL_TEXT[p.signal]} ${value === null ? "unknown" : fmt(value)} (target ${fmt(p.target)})`;
}

/** What the signal asks for, before windows: from the replicas serving, the capacity starting counted in. */
export function recommend(p: PolicyView, t: Pick<TickView, "ready" | "starting" | "value" | "wake">): number {
  const current = t.ready + t.starting;
  let want: number;
  if (t.ready === 0) want = t.starting > 0 ? current : t.wake ? 1 : 0;
  else if (t.value === null) want = current; // no signal: change nothing
  else {
    const ratio = t.value / p.target;
    // Each move aims at the edge of the band it comes from, not at the target: a call runs slower
    // in a fuller batch, so fewer replicas hold more than their share of the calls in flight and
    // more hold less. Aimed at the target, a scale-down lands over the band at the next reading
    // and comes back up (and a scale-up overshoots), changing direction under a steady load.
    if (ratio > 1 + TOLERANCE) want = Math.ceil((t.ready * t.value) / (p.target * (1 + TOLERANCE)));
    else if (ratio < 1 - TOLERANCE) want = Math.min(t.ready, Math.ceil((t.ready * t.value) / (p.target * (1 - TOLERANCE))));
    else want = t.ready;
    // Replicas still starting are capacity on the way: counted in, and never stopped before they serve.
    if (t.starting > 0) want = Math.max(want, current);
  }
  if (t.wake) want = Math.max(want, 1);
  return Math.min(p.maxReplicas, Math.max(p.minReplicas, want));
}

export function decide(p: PolicyView, t: TickView): Decision {
  const current = t.ready + t.starting;
  const recommended = recommend(p, t);
  const keepFrom = t.now - Math.max(p.scaleUpWindowSeconds, p.scaleDownWindowSeconds) * 1000;
  const past = t.history.filter((h) => h.at <= t.now);
  // The recommendation in force when the longest window opened is kept too: it held until the next one.
  const boundary = past.filter((h) => h.at < keepFrom).at(-1);
  const history = [...(boundary ? [boundary] : []), ...past.filter((h) => h.at >= keepFrom), { at: t.now, desired: recommended, from: current }];
  const within = (s: number) => {
    const from = t.now - s * 1000;
    const inForce = history.filter((h) => h.at <= from).at(-1);
    // A window the history does not cover yet (a new policy, a restart) counts the current size in.
    return [inForce?.desired ?? current, ...history.filter((h) => h.at > from).map((h) => h.desired)];
  };
  // Scale up only to what every recommendation in the up window asked for; down only to the largest in the down window.
  const upTo = p.scaleUpWindowSeconds === 0 ? recommended : Math.min(...within(p.scaleUpWindowSeconds));
  const downTo = p.scaleDownWindowSeconds === 0 ? recommended : Math.max(...within(p.scaleDownWindowSeconds));
  const sig = signalText(p, t.value);
  const hold = (reason: string, poolLimited = false): Decision => ({ action: "hold", count: 0, desired: current, recommended, reason, poolLimited, history });

  // A scale-up on the signal needs two readings in a row over the band at this replica count: a
  // single reading at the band's edge (a burst of calls, a slow batch) does not start a replica.
  const previous = past.at(-1);
  const confirmed = t.ready === 0 || (previous?.from === current && previous.desired > current);
  // The warm floor and the ceiling hold whatever the windows say.
  let target = current < p.minReplicas ? p.minReplicas : current > p.maxReplicas ? p.maxReplicas : upTo > current && confirmed ? upTo : downTo < current ? downTo : current;
  if (t.wake && current === 0) target = Math.max(target, 1);

  if (target > current) {
    if (t.canaryJudging && current >= p.minReplicas && !(t.wake && current === 0)) return hold(`held at ${current}: an automatic canary is judging this version; adding replicas mid-step would skew its comparison (${sig})`);
    const want = target - current;
    const count = Math.min(want, t.placeable);
    const why = current < p.minReplicas ? `below the warm floor of ${p.minReplicas}` : t.wake && current === 0 ? "calls are waiting at the gateway while none is running (scale from zero)" : sig;
    if (count === 0) return hold(`wants ${target} (${why}) but the pool can place no more replicas`, true);
    const limited = count < want;
    return {
      action: "scale_up",
      count,
      desired: current + count,
      recommended,
      reason: `${current} → ${current + count}: ${why}${t.starting ? `; ${t.starting} still starting counted as capacity` : ""}${limited ? `; wanted ${target}, the pool holds only ${count} more` : ""}`,
      poolLimited: limited,
      history,
    };
  }
  if (target < current) {
    if (t.canaryJudging && current <= p.maxReplicas) return hold(`held at ${current}: an automatic canary is judging this version; removing replicas mid-step would skew its comparison (${sig})`);
    const why = current > p.maxReplicas ? `above the ceiling of ${p.maxReplicas}` : `${sig}, for the whole ${p.scaleDownWindowSeconds} s scale-down window`;
    return { action: "scale_down", count: current - target, desired: target, recommended, reason: `${current} → ${target}: ${why}`, poolLimited: false, history };
  }
  if (recommended > current && !confirmed) return hold(`wants ${recommended} (${sig}) on one reading; waiting for a second at ${current}`);
  if (recommended > current) return hold(`wants ${recommended} (${sig}); waiting out the ${p.scaleUpWindowSeconds} s scale-up window`);
  if (recommended < current) return hold(`could go to ${recommended} (${sig}); waiting out the ${p.scaleDownWindowSeconds} s scale-down window`);
  return hold(`steady at ${current}: ${sig}`);
}
