import type { ChartNote } from "./chart-keys.ts";

/** A Prometheus range-query result: one series per label set, [unix seconds, "value"] pairs. */
export interface PromMatrix {
  resultType: "matrix";
  result: { metric: Record<string, string>; values: [number, string][] }[];
}

/** Rows for a chart: one per step, `t` in ms, one key per series; a missing sample is null (a gap, never a zero). */
export type ChartRow = { t: number } & Record<string, number | null>;

/**
 * Turns a matrix into chart rows on the query's own step grid, so every series has a slot at
 * every step and a step without a sample stays null. `name` names a series from its labels.
 */
export function matrixToRows(m: PromMatrix, grid: { start: number; end: number; step: number }, name: (labels: Record<string, string>) => string, scale = 1): { rows: ChartRow[]; series: string[] } {
  const series = m.result.map((r) => name(r.metric));
  const rows: ChartRow[] = [];
  const index = new Map<number, ChartRow>();
  for (let t = grid.start; t <= grid.end + 1e-9; t += grid.step) {
    const row = { t: Math.round(t * 1000) } as ChartRow;
    for (const s of series) row[s] = null;
    rows.push(row);
    index.set(Math.round(t), row);
  }
  m.result.forEach((r, i) => {
    for (const [ts, v] of r.values) {
      const row = index.get(Math.round(ts));
      const n = Number(v);
      // NaN (e.g. a quantile of no traffic) is no data, not zero.
      if (row && Number.isFinite(n)) row[series[i]!] = n * scale;
    }
  });
  return { rows, series };
}

/**
 * Batch fill of an endpoint: sequences running over the sum of its replicas' maximum batch, per
 * step. A replica counts only at steps where it reported; a step where none did is a gap. vLLM
 * does not export its --max-num-seqs: Kule's discovery labels it where the driver knows it, and
 * replicas without it are left out with a note saying so.
 */
export function batchFillRows(m: PromMatrix, grid: { start: number; end: number; step: number }, name = "batch fill"): { rows: ChartRow[]; series: string[]; note?: ChartNote } {
  const running = new Map<number, number>();
  const capacity = new Map<number, number>();
  const unknown = new Set<string>();
  for (const r of m.result) {
    const max = Number(r.metric.kule_max_num_seqs);
    if (!(max > 0)) {
      unknown.add(r.metric.kule_replica ?? "?");
      continue; // without its maximum a replica's fill is unknown
    }
    for (const [ts, v] of r.values) {
      const n = Number(v);
      if (!Number.isFinite(n)) continue;
      const k = Math.round(ts);
      running.set(k, (running.get(k) ?? 0) + n);
      capacity.set(k, (capacity.get(k) ?? 0) + max);
    }
  }
  const rows: ChartRow[] = [];
  for (let t = grid.start; t <= grid.end + 1e-9; t += grid.step) {
    const k = Math.round(t);
    const cap = capacity.get(k);
    rows.push({ t: Math.round(t * 1000), [name]: cap ? (100 * running.get(k)!) / cap : null } as ChartRow);
  }
  // vLLM does not export --max-num-seqs: replicas Kule's drivers did not start are left out, and the chart says so.
  const note: ChartNote | undefined = unknown.size ? { key: "batchLeftOut", values: { count: unknown.size } } : undefined;
  return { rows, series: [name], ...(note ? { note } : {}) };
}
