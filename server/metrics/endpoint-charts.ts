import type { PrismaClient } from "../db/generated/client.ts";
import { NotFoundError } from "../errors.ts";
import { matrixToRows, type ChartRow } from "./adapters.ts";
import { endpointQueries as q, RANGES, rateWindow, stepFor, type RangeName } from "./promql.ts";
import { MetricsUnavailableError, type PrometheusClient } from "./prometheus-client.ts";

export interface Chart {
  id: string;
  title: string;
  unit: "req/s" | "ms" | "%" | "tok/s" | "requests";
  rows: ChartRow[];
  series: string[];
}

/**
 * The endpoint page's charts. When Prometheus is off or slow, the answer says so instead of
 * failing the page: `{ available: false, reason }`.
 */
export async function endpointCharts({ db, prometheus }: { db: PrismaClient; prometheus: PrometheusClient }, input: { endpointId: string; range: RangeName; now?: number }) {
  const endpoint = await db.endpoint.findUnique({ where: { id: input.endpointId }, select: { slug: true } });
  if (!endpoint) throw new NotFoundError("Endpoint");
  const step = stepFor(input.range);
  const end = Math.floor((input.now ?? Date.now()) / 1000);
  const start = end - RANGES[input.range];
  const grid = { start: Math.floor(start / step) * step, end: Math.floor(end / step) * step, step };
  const w = rateWindow(step);
  const slug = endpoint.slug;
  const run = async (id: string, title: string, unit: Chart["unit"], parts: { query: string; name: (l: Record<string, string>) => string; scale?: number }[]): Promise<Chart> => {
    const results = await Promise.all(parts.map((p) => prometheus.queryRange(p.query, start, end, step).then((m) => matrixToRows(m, grid, p.name, p.scale))));
    // Merge the parts' series into one set of rows on the shared grid.
    const rows = results[0]!.rows.map((row, i) => Object.assign({}, ...results.map((r) => r.rows[i])) as ChartRow);
    return { id, title, unit, rows, series: results.flatMap((r) => r.series) };
  };
  try {
    const charts = await Promise.all([
      run("rps", "Requests/s by version", "req/s", [{ query: q.requestsByVersion(slug, w), name: (l) => `v${l.version ?? "?"}` }]),
      run("latency", "Latency", "ms", [0.5, 0.95, 0.99].map((p) => ({ query: q.latency(slug, p, w), name: () => `P${p * 100}`, scale: 1000 }))),
      run("ttft", "Time to first token", "ms", [0.5, 0.99].map((p) => ({ query: q.ttft(slug, p, w), name: () => `P${p * 100}`, scale: 1000 }))),
      run("errors", "Error rate", "%", [{ query: q.errorRate(slug, w), name: () => "5xx", scale: 100 }]),
      run("tokens", "Tokens/s", "tok/s", [{ query: q.tokens(slug, w), name: (l) => l.kind ?? "tokens" }]),
      run("queue", "Queue depth (waiting requests)", "requests", [{ query: q.queueDepth(slug), name: () => "waiting" }]),
      run("kv", "KV-cache usage", "%", [{ query: q.kvCache(slug), name: () => "KV cache", scale: 100 }]),
    ]);
    return { available: true as const, range: input.range, step, charts };
  } catch (e) {
    if (e instanceof MetricsUnavailableError) return { available: false as const, reason: e.message };
    throw e;
  }
}
