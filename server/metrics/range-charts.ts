import { matrixToRows, type ChartRow } from "./adapters.ts";
import { RANGES, rateWindow, stepFor, type RangeName } from "./promql.ts";
import type { PrometheusClient } from "./prometheus-client.ts";

export interface SeriesQuery {
  query: string;
  name: (labels: Record<string, string>) => string;
  scale?: number;
}

/** The grid and rate window of a time range, and a runner that merges several queries into one chart's rows. */
export function rangeCharts(prometheus: PrometheusClient, range: RangeName, now = prometheus.now()) {
  const step = stepFor(range);
  const end = Math.floor(now / 1000);
  const start = end - RANGES[range];
  const grid = { start: Math.floor(start / step) * step, end: Math.floor(end / step) * step, step };
  const chart = async <I extends string, U extends string>(id: I, unit: U, parts: SeriesQuery[]) => {
    const results = await Promise.all(parts.map((p) => prometheus.queryRange(p.query, start, end, step).then((m) => matrixToRows(m, grid, p.name, p.scale))));
    const rows = results[0]!.rows.map((row, i) => Object.assign({}, ...results.map((r) => r.rows[i])) as ChartRow);
    return { id, unit, rows, series: results.flatMap((r) => r.series) };
  };
  return { step, start, end, grid, w: rateWindow(step), chart };
}
