/**
 * The automatic canary as a pure state machine: a snapshot (what the database holds) and an event
 * give the next snapshot and the decision to apply. No clock, no I/O: the engine passes `now` and
 * the analysis in, so every transition — and a restart in the middle of a plan — is unit-tested.
 */

export interface PlanStep {
  /** The canary's share of traffic during this step; the last step is 100 (the promote). */
  weight: number;
  /** How long the step holds, healthy, before the next one. */
  holdSeconds: number;
}

export interface AnalysisConfig {
  /** Prometheus window the canary and stable versions are compared over. */
  windowSeconds: number;
  /** Canary p95 latency / TTFT may exceed the stable version's by at most this much (%)… */
  latencyMarginPct: number;
  /** …or by this many milliseconds, whichever is larger: histogram buckets make small latencies coarse. */
  latencyMarginMs: number;
  /** Canary error rate may exceed max(SLO budget rate, stable's rate) by at most this (points). */
  errorMarginPoints: number;
  /** No verdict (neither advance nor roll back) on fewer canary requests than this in the window. */
  minRequests: number;
}

export interface Slo {
  availabilityPct: number;
  p99LatencyMs: number;
  ttftMs: number | null;
}

export interface VersionStats {
  requests: number;
  /** 0–1: answers with a 5xx status over all answers. */
  errorRate: number;
  p95Ms: number | null;
  ttftP95Ms: number | null;
}

export interface Analysis {
  canary: VersionStats;
  stable: VersionStats | null;
}

export type PlanState = "running" | "paused" | "succeeded" | "rolled_back" | "aborted";

export interface PlanSnapshot {
  state: PlanState;
  stepIndex: number;
  /** Epoch ms the current step began (shifted forward by the time spent paused). */
  stepStartedAt: number;
  pausedAt: number | null;
  steps: PlanStep[];
  analysis: AnalysisConfig;
}

export type PlanEvent =
  | { type: "tick"; now: number; analysis: Analysis | null; slo: Slo }
  | { type: "pause"; now: number }
  | { type: "resume"; now: number }
  | { type: "advance"; now: number }
  | { type: "abort"; now: number }
  | { type: "rollback"; now: number };

export type Metric = "error_rate" | "p95_latency_ms" | "ttft_p95_ms" | "ready_replicas";

export interface Breach {
  metric: Metric;
  value: number;
  threshold: number;
  /** Which limit it broke: the endpoint's SLO or the margin over the stable version. */
  against: "slo" | "stable";
}

export type Decision =
  | { kind: "hold"; note: string }
  | { kind: "step"; stepIndex: number; weight: number; why: "healthy" | "operator" }
  | { kind: "promote"; why: "healthy" | "operator" }
  | { kind: "rollback"; breach: Breach | null; why: "breach" | "operator" | "aborted" }
  | { kind: "paused" }
  | { kind: "resumed" };

export class InvalidTransition extends Error {}

export const ACTIVE_STATES: readonly PlanState[] = ["running", "paused"];

export function isActive(state: PlanState): boolean {
  return ACTIVE_STATES.includes(state);
}

/**
 * The first limit the canary breaks, or null. A canary is not blamed for errors the stable
 * version shows as well, and the margins absorb the noise of small samples.
 */
export function findBreach(a: Analysis, slo: Slo, cfg: AnalysisConfig): Breach | null {
  const c = a.canary;
  const budgetRate = 1 - slo.availabilityPct / 100;
  const errorThreshold = Math.max(budgetRate, a.stable?.errorRate ?? 0) + cfg.errorMarginPoints / 100;
  if (c.errorRate > errorThreshold) {
    return { metric: "error_rate", value: c.errorRate, threshold: errorThreshold, against: a.stable && a.stable.errorRate > budgetRate ? "stable" : "slo" };
  }
  const margin = 1 + cfg.latencyMarginPct / 100;
  const latency = [
    { metric: "p95_latency_ms" as const, value: c.p95Ms, slo: slo.p99LatencyMs, stable: a.stable?.p95Ms ?? null },
    { metric: "ttft_p95_ms" as const, value: c.ttftP95Ms, slo: slo.ttftMs, stable: a.stable?.ttftP95Ms ?? null },
  ];
  for (const l of latency) {
    if (l.value === null) continue;
    // p95 over the SLO's p99 bound means the p99 bound cannot hold either.
    if (l.slo !== null && l.value > l.slo) return { metric: l.metric, value: l.value, threshold: l.slo, against: "slo" };
    const allowed = l.stable === null ? null : Math.max(l.stable * margin, l.stable + cfg.latencyMarginMs);
    if (allowed !== null && l.value > allowed) return { metric: l.metric, value: l.value, threshold: allowed, against: "stable" };
  }
  return null;
}

function need(s: PlanSnapshot, allowed: PlanState[], event: string) {
  if (!allowed.includes(s.state)) throw new InvalidTransition(`Cannot ${event} a rollout that is ${s.state.replace("_", " ")}.`);
}

function nextStep(s: PlanSnapshot, now: number, why: "healthy" | "operator"): { next: PlanSnapshot; decision: Decision } {
  const index = s.stepIndex + 1;
  const step = s.steps[index];
  if (!step || step.weight >= 100) {
    return { next: { ...s, state: "succeeded", stepIndex: s.steps.length - 1, stepStartedAt: now, pausedAt: null }, decision: { kind: "promote", why } };
  }
  return { next: { ...s, state: "running", stepIndex: index, stepStartedAt: now, pausedAt: null }, decision: { kind: "step", stepIndex: index, weight: step.weight, why } };
}

export function transition(s: PlanSnapshot, e: PlanEvent): { next: PlanSnapshot; decision: Decision } {
  switch (e.type) {
    case "pause":
      need(s, ["running"], "pause");
      return { next: { ...s, state: "paused", pausedAt: e.now }, decision: { kind: "paused" } };
    case "resume":
      need(s, ["paused"], "resume");
      // The hold counts only running time: the step's clock moves forward by the pause.
      return { next: { ...s, state: "running", pausedAt: null, stepStartedAt: s.stepStartedAt + (e.now - (s.pausedAt ?? e.now)) }, decision: { kind: "resumed" } };
    case "advance":
      need(s, ["running", "paused"], "advance");
      return nextStep(s, e.now, "operator");
    case "abort":
      need(s, ["running", "paused"], "abort");
      return { next: { ...s, state: "aborted", pausedAt: null }, decision: { kind: "rollback", breach: null, why: "aborted" } };
    case "rollback":
      need(s, ["running", "paused"], "roll back");
      return { next: { ...s, state: "rolled_back", pausedAt: null }, decision: { kind: "rollback", breach: null, why: "operator" } };
    case "tick": {
      if (s.state !== "running") return { next: s, decision: { kind: "hold", note: `the rollout is ${s.state.replace("_", " ")}` } };
      // Never advance blind: without metrics the plan holds where it is.
      if (!e.analysis) return { next: s, decision: { kind: "hold", note: "metrics unavailable: holding the current step" } };
      const enough = e.analysis.canary.requests >= s.analysis.minRequests;
      if (enough) {
        const breach = findBreach(e.analysis, e.slo, s.analysis);
        if (breach) return { next: { ...s, state: "rolled_back" }, decision: { kind: "rollback", breach, why: "breach" } };
      }
      const step = s.steps[s.stepIndex]!;
      if (e.now - s.stepStartedAt < step.holdSeconds * 1000) return { next: s, decision: { kind: "hold", note: "holding the step" } };
      if (!enough) return { next: s, decision: { kind: "hold", note: `waiting for ${s.analysis.minRequests} canary requests in the window (have ${Math.round(e.analysis.canary.requests)})` } };
      return nextStep(s, e.now, "healthy");
    }
  }
}

/** The weights a decision leaves in force, or null when it does not change them. */
export function weightsAfter(d: Decision): { canary: number; stable: number } | null {
  switch (d.kind) {
    case "step":
      return { canary: d.weight, stable: 100 - d.weight };
    case "promote":
      return { canary: 100, stable: 0 };
    case "rollback":
      return { canary: 0, stable: 100 };
    default:
      return null;
  }
}
