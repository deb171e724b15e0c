/**
 * Prometheus recording and alerting rules generated from the endpoints' SLOs in PostgreSQL:
 * error ratios per SLI over every window the alerts need, the error budget left over the budget
 * window, and the SRE workbook's multi-window, multi-burn-rate alerts. Pure: SLOs in, YAML out.
 */
import { labelValue } from "../promql.ts";

export type SloKind = "availability" | "latency" | "ttft";

/** What the database holds for one endpoint (Endpoint.slo* columns). */
export interface EndpointSlo {
  slug: string;
  availabilityPct: number;
  p99LatencyMs: number;
  ttftMs: number | null;
}

export interface BurnAlert {
  name: string;
  severity: "page" | "ticket";
  burnRate: number;
  long: string;
  short: string;
  /** How long both windows must burn before the alert fires (pending until then). */
  for: string;
}

export interface SloRuleOptions {
  alerts: readonly BurnAlert[];
  /** The rolling window the error budget is counted over. */
  budgetWindow: string;
  /** Optional group evaluation interval (the global one when unset). */
  interval?: string;
}

/** Google SRE workbook, table 5-8 (facts.md): page 14.4× 1h & 5m, page 6× 6h & 30m, ticket 1× 3d & 6h. */
export const SRE_WORKBOOK_ALERTS: readonly BurnAlert[] = [
  { name: "KuleSloBurnFast", severity: "page", burnRate: 14.4, long: "1h", short: "5m", for: "2m" },
  { name: "KuleSloBurnMedium", severity: "page", burnRate: 6, long: "6h", short: "30m", for: "15m" },
  { name: "KuleSloBurnSlow", severity: "ticket", burnRate: 1, long: "3d", short: "6h", for: "1h" },
];

export const DEFAULT_SLO_RULE_OPTIONS: SloRuleOptions = { alerts: SRE_WORKBOOK_ALERTS, budgetWindow: "30d" };

const DURATION = /^\d+(ms|s|m|h|d|w|y)$/;

/** The share of events allowed to be bad (1 − objective) and how a bad event is counted. */
export interface Sli {
  kind: SloKind;
  /** Objective as a ratio, e.g. 0.999. */
  objective: number;
  /** For latency SLIs: the threshold a good request is within (seconds), exactly as the SLO says. */
  thresholdSeconds?: number;
  /** A PromQL expression of the bad-event ratio over window `w`. */
  errorRatio: (w: string) => string;
}

/** p99 latency and TTFT SLOs read as "99% of requests within the threshold". */
const LATENCY_OBJECTIVE = 0.99;

export function slisOf(e: EndpointSlo): Sli[] {
  const ep = `endpoint=${labelValue(e.slug)}`;
  const slis: Sli[] = [
    {
      kind: "availability",
      objective: Number((e.availabilityPct / 100).toPrecision(12)), // 99.9 / 100 is 0.9990000000000001
      // No 5xx series at all means no errors yet: zero while traffic flows. Without traffic the
      // ratio is no data (`> 0` on the denominator) rather than 0/0 = NaN.
      errorRatio: (w) => `(sum(rate(kule_gateway_requests_total{${ep},status=~"5.."}[${w}])) or vector(0)) / (sum(rate(kule_gateway_requests_total{${ep}}[${w}])) > 0)`,
    },
  ];
  // The gateway judges every request against the threshold in force and counts it good or bad
  // (kule_gateway_slo_requests_total), so any threshold is exact; a histogram would read one between
  // its buckets at the bucket below. Selecting threshold_ms means that after a change the SLI counts
  // only requests judged against the new threshold.
  const latency = (kind: "latency" | "ttft", ms: number): Sli => {
    const sel = `${ep},slo=${labelValue(kind)},threshold_ms=${labelValue(String(ms))}`;
    return {
      kind,
      objective: LATENCY_OBJECTIVE,
      thresholdSeconds: ms / 1000,
      errorRatio: (w) => `(sum(rate(kule_gateway_slo_requests_total{${sel},result="bad"}[${w}])) or vector(0)) / (sum(rate(kule_gateway_slo_requests_total{${sel}}[${w}])) > 0)`,
    };
  };
  slis.push(latency("latency", e.p99LatencyMs));
  if (e.ttftMs !== null) slis.push(latency("ttft", e.ttftMs));
  return slis;
}

/** The recorded error ratio of one window; the SLA status reads the same names. */
export const errorRatioRecord = (w: string) => `kule:slo_errors:ratio_rate${w}`;
export const BUDGET_LEFT_RECORD = "kule:slo_error_budget_remaining:ratio";
export const OBJECTIVE_RECORD = "kule:slo_objective:ratio";

/** A number written without float noise (14.4 × 0.001 is 0.014400000000000001 in JS). */
const num = (n: number) => String(Number(n.toPrecision(12)));
const q = (s: string) => JSON.stringify(s);

/** Every window the rules need, short ones first, without repeats. */
export function windowsOf(opts: SloRuleOptions): string[] {
  const all = [...opts.alerts.flatMap((a) => [a.short, a.long]), opts.budgetWindow];
  return [...new Set(all)];
}

export function validateOptions(opts: SloRuleOptions): void {
  for (const w of windowsOf(opts)) if (!DURATION.test(w)) throw new Error(`invalid window ${q(w)}: use a Prometheus duration such as 5m`);
  for (const a of opts.alerts) {
    if (!DURATION.test(a.for)) throw new Error(`invalid for ${q(a.for)} of ${a.name}`);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.name)) throw new Error(`invalid alert name ${q(a.name)}`);
    if (!(a.burnRate > 0)) throw new Error(`burn rate of ${a.name} must be positive`);
  }
  if (opts.interval && !DURATION.test(opts.interval)) throw new Error(`invalid interval ${q(opts.interval)}`);
}

/** The rules file for every endpoint: one group per endpoint, recording rules before the alerts that read them. */
export function generateSloRules(endpoints: readonly EndpointSlo[], opts: SloRuleOptions = DEFAULT_SLO_RULE_OPTIONS): string {
  validateOptions(opts);
  const windows = windowsOf(opts);
  const out = [
    "# Generated by Kule from the endpoints' SLOs (server/metrics/slo/slo-rules.ts); edits are overwritten.",
    "groups:",
  ];
  if (endpoints.length === 0) return out.join("\n").replace(/groups:$/, "groups: []") + "\n";
  const sorted = [...endpoints].sort((a, b) => a.slug.localeCompare(b.slug));
  for (const e of sorted) {
    out.push(`  - name: ${q(`kule-slo:${e.slug}`)}`);
    if (opts.interval) out.push(`    interval: ${opts.interval}`);
    out.push("    rules:");
    for (const sli of slisOf(e)) {
      const labels = [`endpoint: ${q(e.slug)}`, `slo: ${q(sli.kind)}`];
      const record = (name: string, expr: string, extra: string[] = []) => {
        out.push(`      - record: ${name}`, `        expr: ${q(expr)}`, "        labels:");
        for (const l of [...labels, ...extra]) out.push(`          ${l}`);
      };
      record(OBJECTIVE_RECORD, `vector(${num(sli.objective)})`, sli.thresholdSeconds !== undefined ? [`threshold_seconds: ${q(num(sli.thresholdSeconds))}`] : []);
      for (const w of windows) record(errorRatioRecord(w), sli.errorRatio(w));
      const budget = 1 - sli.objective;
      const sel = `{endpoint=${labelValue(e.slug)},slo=${labelValue(sli.kind)}}`;
      record(BUDGET_LEFT_RECORD, `1 - ${errorRatioRecord(opts.budgetWindow)}${sel} / ${num(budget)}`);
      for (const a of opts.alerts) {
        const threshold = num(a.burnRate * budget);
        out.push(
          `      - alert: ${a.name}`,
          `        expr: ${q(`${errorRatioRecord(a.long)}${sel} > ${threshold} and ${errorRatioRecord(a.short)}${sel} > ${threshold}`)}`,
          `        for: ${a.for}`,
          "        labels:",
          ...labels.map((l) => `          ${l}`),
          `          severity: ${a.severity}`,
          `          burn_rate: ${q(num(a.burnRate))}`,
          `          long_window: ${q(a.long)}`,
          `          short_window: ${q(a.short)}`,
          "        annotations:",
          `          summary: ${q(`${e.slug}: ${sli.kind} error budget burning ${num(a.burnRate)}× too fast`)}`,
          `          description: ${q(`Endpoint ${e.slug} has had {{ $value | humanizePercentage }} bad requests (${sli.kind}) over ${a.long}, and over ${a.short} too; the ${num(sli.objective * 100)}% objective allows ${num(budget * 100)}%. At this rate ${burnShare(a, opts.budgetWindow)} of the ${opts.budgetWindow} budget is gone within ${a.long}.`)}`,
        );
      }
    }
  }
  return out.join("\n") + "\n";
}

/** Share of the budget a burn rate spends over its long window (2% of 30 days' for 14.4× over 1h). */
function burnShare(a: BurnAlert, budgetWindow: string): string {
  return `${num((a.burnRate * durationSeconds(a.long) * 100) / durationSeconds(budgetWindow))}%`;
}

export function durationSeconds(d: string): number {
  const m = /^(\d+)(ms|s|m|h|d|w|y)$/.exec(d);
  if (!m) throw new Error(`invalid duration ${q(d)}`);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400, w: 604800, y: 31536000 }[m[2] as "s"];
  return Number(m[1]) * unit;
}
