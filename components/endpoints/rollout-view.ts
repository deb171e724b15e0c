/**
 * What the rollout panel shows, computed from the endpoint and its history: kept apart from the
 * components so it is unit-tested (rollout-view.test.ts).
 */

export interface VersionLike {
  id: string;
  weight: number;
  state: string;
  lastFullAt: Date | string | null;
  createdAt: Date | string;
  modelVersion: { version: string };
}

const time = (d: Date | string | null) => (d ? new Date(d).getTime() : 0);

/** Versions that can be on the slider: not retired, not draining. */
export function liveVersions<V extends VersionLike>(versions: V[]): V[] {
  return versions.filter((v) => v.state !== "retired" && v.state !== "draining");
}

/**
 * The slider works on two versions: the stable one (the latest to hold 100%) and the canary (the
 * newest other one). With three or more live versions the page falls back to one input each.
 */
export function canaryPair<V extends VersionLike>(versions: V[]): { stable: V; canary: V } | null {
  const live = liveVersions(versions);
  if (live.length !== 2) return null;
  const [a, b] = live as [V, V];
  const stable = time(a.lastFullAt) >= time(b.lastFullAt) ? a : b;
  return { stable, canary: stable === a ? b : a };
}

/** Mirrors the server's choice (server/rollouts/actions.ts rollbackTarget), to name it on the button. */
export function rollbackTargetOf<V extends VersionLike>(versions: V[]): { target: V | null; blocked: string | null } {
  const holder = versions.find((v) => v.weight === 100);
  const candidates = versions.filter((v) => v.id !== holder?.id && v.lastFullAt).sort((x, y) => time(y.lastFullAt) - time(x.lastFullAt));
  const target = candidates[0] ?? null;
  if (!target) return { target: null, blocked: "No earlier version held all traffic." };
  if (target.state !== "ready") return { target, blocked: `${target.modelVersion.version} is ${target.state}: deploy it again to go back.` };
  return { target, blocked: null };
}

export const PRESETS = [5, 20, 50, 100] as const;

/** "5:600, 20:600, 50:600, 100" ⇄ plan steps (weight:holdSeconds; the last needs no hold). */
export function parseSteps(text: string): { steps: { weight: number; holdSeconds: number }[] } | { error: string } {
  const parts = text.split(",").map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) return { error: "Give at least one step, e.g. 5:600, 20:600, 100" };
  const steps = [];
  for (const p of parts) {
    const m = /^(\d{1,3})\s*%?\s*(?::\s*(\d+)\s*(s|m|h)?)?$/.exec(p);
    if (!m) return { error: `"${p}" is not weight:hold (e.g. 20:10m)` };
    const unit = m[3] === "h" ? 3600 : m[3] === "m" ? 60 : 1;
    steps.push({ weight: Number(m[1]), holdSeconds: m[2] ? Number(m[2]) * unit : 1 });
  }
  return { steps };
}

export function formatSteps(steps: { weight: number; holdSeconds: number }[]): string {
  return steps.map((s) => (s.weight >= 100 ? "100%" : `${s.weight}% for ${formatSeconds(s.holdSeconds)}`)).join(" → ");
}

export function formatSeconds(s: number): string {
  if (s >= 3600 && s % 3600 === 0) return `${s / 3600} h`;
  if (s >= 60 && s % 60 === 0) return `${s / 60} min`;
  return `${s} s`;
}

const METRIC_NAMES: Record<string, string> = { error_rate: "error rate", p95_latency_ms: "p95 latency", ttft_p95_ms: "TTFT p95", ready_replicas: "ready replicas" };

function metricValue(metric: string, v: number): string {
  return metric === "error_rate" ? `${(v * 100).toFixed(2)}%` : metric === "ready_replicas" ? String(v) : `${Math.round(v)} ms`;
}

export interface HistoryItem {
  action: string;
  by: string;
  automatic: boolean;
  after: unknown;
}

type After = {
  version?: string;
  replicas?: number;
  devices?: string[];
  to?: string;
  from?: string;
  replaced?: string[];
  keepWarmSeconds?: number | null;
  decision?: { kind: string; weight?: number; why?: string; breach?: { metric: string; value: number; threshold: number; against: string } | null };
  steps?: unknown[];
  step?: number;
  weights?: { canary: number; stable: number } | null;
} & Record<string, unknown>;

/** One line of the timeline: what happened, in words, and why when it was Kule's own decision. */
export function describeEvent(e: HistoryItem): { title: string; detail: string | null; tone: "ok" | "warn" | "danger" | null } {
  const a = (e.after ?? {}) as After;
  const arr = (x: unknown) => (Array.isArray(x) ? (x as { version: string; weight: number }[]) : null);
  switch (e.action) {
    case "endpoint.create":
      return { title: "Endpoint created", detail: null, tone: null };
    case "endpoint.deploy":
      return { title: `Deployed ${a.version} × ${a.replicas}`, detail: a.devices?.length ? `on ${a.devices.join(", ")}` : null, tone: null };
    case "endpoint.version.add":
      return { title: "Version added at 0%", detail: null, tone: null };
    case "endpoint.weights.set": {
      const after = arr(e.after);
      return { title: `Split set to ${after?.map((v) => `${v.version} ${v.weight}%`).join(" / ") ?? "?"}`, detail: null, tone: null };
    }
    case "endpoint.promote":
      return { title: `Promoted ${a.to} to 100%`, detail: a.replaced?.length ? `${a.replaced.join(", ")} draining` : null, tone: "ok" };
    case "endpoint.blue_green":
      return { title: `Blue-green switch to ${a.to}`, detail: a.replaced?.length ? `${a.replaced.join(", ")} kept warm for ${formatSeconds(a.keepWarmSeconds ?? 0)}` : null, tone: "ok" };
    case "endpoint.rollback":
      return { title: `Rolled back to ${a.to}`, detail: null, tone: "warn" };
    case "endpoint.version.remove":
      return { title: `Removed ${a.version}`, detail: "draining, then its replicas stop", tone: null };
    case "endpoint.version.keep_warm_ended":
      return { title: `${a.version} no longer kept warm`, detail: "draining", tone: null };
    case "endpoint.version.retire":
      return { title: `${a.version} retired`, detail: "replicas stopped, GPUs freed", tone: null };
    case "rollout.start":
      return { title: `Automatic canary ${a.from} → ${a.to} started`, detail: Array.isArray(a.steps) ? formatSteps(a.steps as { weight: number; holdSeconds: number }[]) : null, tone: null };
    case "rollout.pause":
    case "rollout.resume":
    case "rollout.abort":
    case "rollout.advance": {
      const titles: Record<string, string> = { "rollout.pause": "Canary paused", "rollout.resume": "Canary resumed", "rollout.abort": "Canary aborted", "rollout.advance": "Canary advanced by hand" };
      return { title: titles[e.action]!, detail: a.weights ? `canary at ${a.weights.canary}%` : null, tone: e.action === "rollout.abort" ? "warn" : null };
    }
    case "rollout.auto.advance":
      return { title: `Canary healthy: advanced to ${a.decision?.weight}%`, detail: `step ${a.step} of ${a.steps}`, tone: "ok" };
    case "rollout.auto.promote":
      return { title: `Canary healthy through every step: ${a.to} promoted`, detail: null, tone: "ok" };
    case "rollout.auto.rollback": {
      const b = a.decision?.breach;
      const detail = b
        ? `${METRIC_NAMES[b.metric] ?? b.metric} ${metricValue(b.metric, b.value)} over ${b.against === "slo" ? "the SLO limit" : "the stable version's"} ${metricValue(b.metric, b.threshold)}`
        : null;
      return { title: `Kule rolled ${a.to} back`, detail, tone: "danger" };
    }
    default:
      return { title: e.action, detail: null, tone: null };
  }
}
