import type { PrismaClient } from "../../db/generated/client.ts";
import { type PromVector, type PrometheusClient, isMetricsUnavailable } from "../prometheus-client.ts";
import { endpointSlos } from "./rules-sync.ts";
import { DEFAULT_SLO_RULE_OPTIONS, errorRatioRecord, slisOf, windowsOf, type BurnAlert, type SloKind, type SloRuleOptions } from "./slo-rules.ts";
import type { MetricsOffWhy } from "../chart-keys.ts";

export type SlaColour = "green" | "amber" | "red" | "no-data";

export interface AlertState {
  name: string;
  severity: BurnAlert["severity"];
  /** "burning": both windows above the rate now (per the recorded ratios); Prometheus' own state when it has one. */
  state: "burning" | "pending" | "firing";
}

export interface SliStatus {
  kind: SloKind;
  objective: number;
  thresholdMs: number | null;
  /** Bad share over the budget window (30 d), null without traffic. */
  errorRatio: number | null;
  /** 1 = untouched, 0 = spent, below 0 = overspent. */
  budgetLeft: number | null;
  /** How many times faster than the budget allows it burns now (over the fast alert's long window). */
  burnRate: number | null;
  alerts: AlertState[];
  status: SlaColour;
}

/** Under a quarter of the budget left is worth a look before any alert says so. */
const LOW_BUDGET = 0.25;
const RANK: Record<SlaColour, number> = { "no-data": 0, green: 1, amber: 2, red: 3 };

export function worst(colours: SlaColour[]): SlaColour {
  return colours.reduce<SlaColour>((w, c) => (RANK[c] > RANK[w] ? c : w), "no-data");
}

/**
 * One SLI's status from its recorded error ratios (by window) and Prometheus' alert states.
 * Red: a page-level burn (both windows), a firing page, or the budget spent. Amber: a ticket-level
 * burn, a pending alert, or under a quarter of the budget left.
 */
export function assessSli(
  sli: { kind: SloKind; objective: number; thresholdSeconds?: number },
  ratios: Record<string, number | null>,
  promAlerts: { name: string; state: "pending" | "firing" }[],
  opts: SloRuleOptions,
): SliStatus {
  const budget = 1 - sli.objective;
  const errorRatio = ratios[opts.budgetWindow] ?? null;
  const budgetLeft = errorRatio === null ? null : 1 - errorRatio / budget;
  const fastLong = opts.alerts[0]?.long;
  const burnNow = fastLong ? (ratios[fastLong] ?? null) : null;
  const alerts: AlertState[] = [];
  for (const a of opts.alerts) {
    const long = ratios[a.long];
    const short = ratios[a.short];
    const burning = long != null && short != null && long > a.burnRate * budget && short > a.burnRate * budget;
    const prom = promAlerts.find((p) => p.name === a.name);
    if (prom) alerts.push({ name: a.name, severity: a.severity, state: prom.state });
    else if (burning) alerts.push({ name: a.name, severity: a.severity, state: "burning" });
  }
  let status: SlaColour;
  if (errorRatio === null && burnNow === null) status = "no-data";
  else if ((budgetLeft !== null && budgetLeft <= 0) || alerts.some((a) => a.severity === "page" && a.state !== "pending")) status = "red";
  else if (alerts.length > 0 || (budgetLeft !== null && budgetLeft < LOW_BUDGET)) status = "amber";
  else status = "green";
  return {
    kind: sli.kind,
    objective: sli.objective,
    thresholdMs: sli.thresholdSeconds === undefined ? null : Math.round(sli.thresholdSeconds * 1000),
    errorRatio,
    budgetLeft,
    burnRate: burnNow === null ? null : burnNow / budget,
    alerts,
    status,
  };
}

const finite = (v: string) => {
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/**
 * Every endpoint's SLA over the budget window: SLOs from PostgreSQL, error ratios from the
 * recording rules Kule generated, alert states from Prometheus. Two queries for all endpoints,
 * shared by every viewer through the client's cache. Without Prometheus, the SLOs still list.
 */
export async function slaStatus({ db, prometheus }: { db: PrismaClient; prometheus: PrometheusClient }) {
  const opts = prometheus.rules?.options ?? DEFAULT_SLO_RULE_OPTIONS;
  const [rows, slos] = await Promise.all([db.endpoint.findMany({ where: { retiredAt: null }, select: { id: true, slug: true, name: true }, orderBy: { name: "asc" } }), endpointSlos(db)]);
  const sloBySlug = new Map(slos.map((s) => [s.slug, s]));
  let ratios: PromVector = [];
  let alerts: PromVector = [];
  let unavailable: MetricsOffWhy | null = null;
  try {
    const names = windowsOf(opts).map(errorRatioRecord).join("|");
    [ratios, alerts] = await Promise.all([prometheus.query(`{__name__=~${JSON.stringify(names)}}`), prometheus.query(`ALERTS{alertname=~${JSON.stringify(opts.alerts.map((a) => a.name).join("|"))}}`)]);
  } catch (e) {
    if (!(isMetricsUnavailable(e))) throw e;
    unavailable = e.why;
  }
  const windowOfName = new Map(windowsOf(opts).map((w) => [errorRatioRecord(w), w]));
  const endpoints = rows.map((row) => {
    const slo = sloBySlug.get(row.slug)!;
    const slis = slisOf(slo).map((sli) => {
      const byWindow: Record<string, number | null> = {};
      for (const s of ratios) {
        if (s.metric.endpoint !== row.slug || s.metric.slo !== sli.kind) continue;
        const w = windowOfName.get(s.metric.__name__ ?? "");
        if (w) byWindow[w] = finite(s.value[1]);
      }
      const mine = alerts
        .filter((a) => a.metric.endpoint === row.slug && a.metric.slo === sli.kind)
        .map((a) => ({ name: a.metric.alertname ?? "", state: a.metric.alertstate === "firing" ? ("firing" as const) : ("pending" as const) }));
      return assessSli(sli, byWindow, mine, opts);
    });
    return { endpointId: row.id, slug: row.slug, name: row.name, status: unavailable ? ("no-data" as const) : worst(slis.map((s) => s.status)), slis };
  });
  return { prometheus: unavailable ? { available: false as const, reason: unavailable } : { available: true as const }, budgetWindow: opts.budgetWindow, endpoints };
}
