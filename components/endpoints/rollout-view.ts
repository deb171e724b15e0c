/**
 * What the rollout panel shows, computed from the endpoint and its history: kept apart from the
 * components so it is unit-tested (rollout-view.test.ts). The words come from the caller's
 * translator for `endpoints.view` (a component's `useTranslations`, a test's `createTranslator`).
 */
import type { useTranslations } from "use-intl";
import type { Messages } from "@/server/shared/i18n/messages";

export type ViewT = ReturnType<typeof useTranslations<"endpoints.view">>;

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
export function rollbackTargetOf<V extends VersionLike>(versions: V[], t: ViewT): { target: V | null; blocked: string | null } {
  const holder = versions.find((v) => v.weight === 100);
  const candidates = versions.filter((v) => v.id !== holder?.id && v.lastFullAt).sort((x, y) => time(y.lastFullAt) - time(x.lastFullAt));
  const target = candidates[0] ?? null;
  if (!target) return { target: null, blocked: t("noEarlier") };
  if (target.state !== "ready") return { target, blocked: t("targetNotReady", { version: target.modelVersion.version, state: target.state }) };
  return { target, blocked: null };
}

export const PRESETS = [5, 20, 50, 100] as const;

/** "5:600, 20:600, 50:600, 100" ⇄ plan steps (weight:holdSeconds; the last needs no hold). */
export function parseSteps(text: string, t: ViewT): { steps: { weight: number; holdSeconds: number }[] } | { error: string } {
  const parts = text.split(",").map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) return { error: t("atLeastOneStep") };
  const steps = [];
  for (const p of parts) {
    const m = /^(\d{1,3})\s*%?\s*(?::\s*(\d+)\s*(s|m|h)?)?$/.exec(p);
    if (!m) return { error: t("badStep", { step: p }) };
    const unit = m[3] === "h" ? 3600 : m[3] === "m" ? 60 : 1;
    steps.push({ weight: Number(m[1]), holdSeconds: m[2] ? Number(m[2]) * unit : 1 });
  }
  return { steps };
}

export function formatSteps(steps: { weight: number; holdSeconds: number }[], t: ViewT): string {
  return steps.map((s) => (s.weight >= 100 ? "100%" : t("stepFor", { weight: String(s.weight), hold: formatSeconds(s.holdSeconds, t) }))).join(" → ");
}

export function formatSeconds(s: number, t: ViewT): string {
  if (s >= 3600 && s % 3600 === 0) return t("hours", { n: String(s / 3600) });
  if (s >= 60 && s % 60 === 0) return t("minutes", { n: String(s / 60) });
  return t("seconds", { n: String(s) });
}

type MetricName = keyof Messages["endpoints"]["view"]["metric"];
const metricName = (t: ViewT, metric: string) => (t.has(`metric.${metric as MetricName}`) ? t(`metric.${metric as MetricName}`) : metric);

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
export function describeEvent(e: HistoryItem, t: ViewT): { title: string; detail: string | null; tone: "ok" | "warn" | "danger" | null } {
  const a = (e.after ?? {}) as After;
  const arr = (x: unknown) => (Array.isArray(x) ? (x as { version: string; weight: number }[]) : null);
  const list = (x: string[] | undefined) => x?.join(", ") ?? "";
  switch (e.action) {
    case "endpoint.create":
      return { title: t("created"), detail: null, tone: null };
    case "endpoint.deploy":
      return { title: t("deployed", { version: String(a.version), replicas: String(a.replicas) }), detail: a.devices?.length ? t("deployedOn", { devices: list(a.devices) }) : null, tone: null };
    case "endpoint.version.add":
      return { title: t("versionAdded"), detail: null, tone: null };
    case "endpoint.weights.set": {
      const after = arr(e.after);
      return { title: t("splitSet", { split: after?.map((v) => `${v.version} ${v.weight}%`).join(" / ") ?? "?" }), detail: null, tone: null };
    }
    case "endpoint.promote":
      return { title: t("promoted", { version: String(a.to) }), detail: a.replaced?.length ? t("draining", { versions: list(a.replaced) }) : null, tone: "ok" };
    case "endpoint.blue_green":
      return { title: t("blueGreen", { version: String(a.to) }), detail: a.replaced?.length ? t("keptWarm", { versions: list(a.replaced), time: formatSeconds(a.keepWarmSeconds ?? 0, t) }) : null, tone: "ok" };
    case "endpoint.rollback":
      return { title: t("rolledBack", { version: String(a.to) }), detail: null, tone: "warn" };
    case "endpoint.version.remove":
      return { title: t("removed", { version: String(a.version) }), detail: t("removedDetail"), tone: null };
    case "endpoint.version.keep_warm_ended":
      return { title: t("warmEnded", { version: String(a.version) }), detail: t("drainingWord"), tone: null };
    case "endpoint.version.retire":
      return { title: t("retired", { version: String(a.version) }), detail: t("retiredDetail"), tone: null };
    case "rollout.start":
      return { title: t("planStarted", { from: String(a.from), to: String(a.to) }), detail: Array.isArray(a.steps) ? formatSteps(a.steps as { weight: number; holdSeconds: number }[], t) : null, tone: null };
    case "rollout.pause":
    case "rollout.resume":
    case "rollout.abort":
    case "rollout.advance": {
      const titles = { "rollout.pause": t("planPaused"), "rollout.resume": t("planResumed"), "rollout.abort": t("planAborted"), "rollout.advance": t("planAdvanced") };
      return { title: titles[e.action], detail: a.weights ? t("canaryAt", { weight: String(a.weights.canary) }) : null, tone: e.action === "rollout.abort" ? "warn" : null };
    }
    case "rollout.auto.advance":
      return { title: t("autoAdvanced", { weight: String(a.decision?.weight) }), detail: t("autoStep", { step: String(a.step), steps: String(a.steps) }), tone: "ok" };
    case "rollout.auto.promote":
      return { title: t("autoPromoted", { version: String(a.to) }), detail: null, tone: "ok" };
    case "rollout.auto.rollback": {
      const b = a.decision?.breach;
      const values = b ? { metric: metricName(t, b.metric), value: metricValue(b.metric, b.value), limit: metricValue(b.metric, b.threshold) } : null;
      const detail = b && values ? (b.against === "slo" ? t("overSlo", values) : t("overStable", values)) : null;
      return { title: t("autoRolledBack", { version: String(a.to) }), detail, tone: "danger" };
    }
    default:
      return { title: e.action, detail: null, tone: null };
  }
}
