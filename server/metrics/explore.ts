import { InvalidInputError } from "../errors.ts";
import { matrixToRows } from "./adapters.ts";
import type { RangeName } from "./promql.ts";
import { type PrometheusClient, isMetricsUnavailable, isPromQueryError } from "./prometheus-client.ts";
import { rangeCharts } from "./range-charts.ts";

/** More series than a chart can show legibly; the table still lists the first ones. */
export const EXPLORE_MAX_SERIES = 20;

/** `{a="1", b="2"}`, the way Prometheus prints a series, for legends and the table. */
export function seriesName(labels: Record<string, string>): string {
  const { __name__, ...rest } = labels;
  const inner = Object.entries(rest)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(", ");
  return `${__name__ ?? ""}{${inner}}`;
}

/**
 * Operators' raw PromQL over a time range: a chart of up to 20 series and a table of each
 * series' latest value. A query Prometheus refuses is the `query` field's error (400), with
 * Prometheus' own message; Prometheus being away is `available: false`, as on every chart.
 */
export async function explore({ prometheus }: { prometheus: PrometheusClient }, input: { query: string; range: RangeName; now?: number }) {
  const { start, end, step, grid } = rangeCharts(prometheus, input.range, input.now);
  try {
    const m = await prometheus.queryRange(input.query, start, end, step);
    const shown = { ...m, result: m.result.slice(0, EXPLORE_MAX_SERIES) };
    const { rows, series } = matrixToRows(shown, grid, seriesName);
    const table = m.result.slice(0, 200).map((r) => {
      const last = r.values[r.values.length - 1];
      return { series: seriesName(r.metric), value: last ? Number(last[1]) : null, at: last ? last[0] * 1000 : null };
    });
    return { available: true as const, step, rows, series, table, totalSeries: m.result.length, truncated: m.result.length > EXPLORE_MAX_SERIES };
  } catch (e) {
    if (isPromQueryError(e)) throw new InvalidInputError("query", e.message);
    if (isMetricsUnavailable(e)) return { available: false as const, reason: e.why };
    throw e;
  }
}
