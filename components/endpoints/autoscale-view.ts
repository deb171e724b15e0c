/** The autoscaling panel's chart data, shaped apart from drawing (tests beside it). */

export interface SampleLike {
  at: number;
  ready: number;
  starting: number;
  value: number | null;
}

export interface DecisionLike {
  at: string;
  action: string;
  desired: number;
}

export type SignalKind = "waiting_per_replica" | "kv_cache_usage" | "in_flight_per_replica";

/** Each signal's name on the page, as a key of the endpoints.autoscale messages. */
export const SIGNAL_KEY = {
  waiting_per_replica: "signalWaiting",
  kv_cache_usage: "signalKv",
  in_flight_per_replica: "signalInFlight",
} as const satisfies Record<SignalKind, string>;

/** Rows for the replica chart and the signal chart; an unknown signal is a gap, never a zero. KV-cache use is drawn in %. */
export function autoscaleRows(samples: SampleLike[], signal: SignalKind, target: number) {
  const pct = signal === "kv_cache_usage" ? 100 : 1;
  const replicas = samples.map((s) => ({ t: s.at, ready: s.ready, starting: s.starting }));
  const signalRows = samples.map((s) => ({ t: s.at, signal: s.value === null ? null : s.value * pct, target: target * pct }));
  return { replicas, signal: signalRows, unit: signal === "kv_cache_usage" ? "%" : "per replica" };
}

/** Each scale-up or scale-down as a mark on the chart: "↑3", "↓1". */
export function decisionMarks(points: DecisionLike[]) {
  return points.filter((p) => p.action !== "hold").map((p) => ({ t: Date.parse(p.at), label: `${p.action === "scale_up" ? "↑" : "↓"}${p.desired}` }));
}
