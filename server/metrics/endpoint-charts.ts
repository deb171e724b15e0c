import type { PrismaClient } from "../db/generated/client.ts";
import { NotFoundError } from "../errors.ts";
import { matrixToRows, type ChartRow } from "./adapters.ts";
import { RANGES, rateWindow, stepFor, type RangeName } from "./promql.ts";
import { panelsFor, type EndpointPanel, type PanelUnit } from "./endpoint-panels.ts";
import { type PrometheusClient, isMetricsUnavailable } from "./prometheus-client.ts";
import { metricsOf, type EngineMetrics } from "./exporters/engines.ts";
import type { ChartNote, EndpointChartId } from "./chart-keys.ts";

export interface Chart {
  /** Its title's key in the messages (metrics.chart.endpoint). */
  id: EndpointChartId;
  unit: PanelUnit;
  rows: ChartRow[];
  series: string[];
  note?: ChartNote;
}

/**
 * The endpoint page's charts (with the shadow panels while a version takes shadow traffic). When Prometheus is off or slow, the answer says so instead of
 * failing the page: `{ available: false, reason }`.
 */
export async function endpointCharts({ db, prometheus }: { db: PrismaClient; prometheus: PrometheusClient }, input: { endpointId: string; range: RangeName; now?: number }) {
  const endpoint = await db.endpoint.findUnique({ where: { id: input.endpointId }, select: { slug: true, engine: true, versions: { where: { shadowPercent: { gt: 0 } }, select: { id: true } } } });
  if (!endpoint) throw new NotFoundError("Endpoint");
  return chartsOf(prometheus, { slug: endpoint.slug, metrics: metricsOf(endpoint.engine), shadow: endpoint.versions.length > 0 }, input);
}

/** The panels of an endpoint of `slug` whose servers publish `metrics`, over a range. */
export async function chartsOf(prometheus: PrometheusClient, endpoint: { slug: string; metrics: EngineMetrics; shadow?: boolean }, input: { range: RangeName; now?: number }) {
  const step = stepFor(input.range);
  const end = Math.floor((input.now ?? prometheus.now()) / 1000);
  const start = end - RANGES[input.range];
  const grid = { start: Math.floor(start / step) * step, end: Math.floor(end / step) * step, step };
  const w = rateWindow(step);
  const slug = endpoint.slug;
  const run = async (panel: EndpointPanel): Promise<Chart> => {
    const results = await Promise.all(
      panel.targets.map((p) => prometheus.queryRange(p.query(slug, w), start, end, step).then((m): { rows: ChartRow[]; series: string[]; note?: ChartNote } => (p.adapt ? p.adapt(m, grid) : matrixToRows(m, grid, p.name, p.scale)))),
    );
    // Merge the targets' series into one set of rows on the shared grid.
    const rows = results[0]!.rows.map((row, i) => Object.assign({}, ...results.map((r) => r.rows[i])) as ChartRow);
    const empty = !rows.some((r) => Object.entries(r).some(([k, v]) => k !== "t" && v !== null));
    const whyEmpty = empty ? panel.emptyWhy?.[endpoint.metrics] : undefined;
    const note = results.map((r) => r.note).find(Boolean) ?? (whyEmpty ? { key: whyEmpty } : undefined);
    return { id: panel.id, unit: panel.unit, rows, series: results.flatMap((r) => r.series), ...(note ? { note } : {}) };
  };
  try {
    const charts = await Promise.all(panelsFor(endpoint.metrics, endpoint.shadow).map(run));
    return { available: true as const, range: input.range, step, charts };
  } catch (e) {
    if (isMetricsUnavailable(e)) return { available: false as const, reason: e.why };
    throw e;
  }
}
