import type { PromMatrix } from "./adapters.ts";

export class MetricsUnavailableError extends Error {}

/**
 * Reads Prometheus' HTTP API. Identical queries within `ttlMs` share one answer (and one request
 * in flight), so any number of viewers of a page cost Prometheus one set of queries per refresh.
 */
export class PrometheusClient {
  private cache = new Map<string, { at: number; value: Promise<PromMatrix> }>();
  queriesSent = 0;

  constructor(
    readonly baseUrl: string | null,
    private readonly opts = { ttlMs: 4000, timeoutMs: 3000 },
  ) {}

  queryRange(query: string, start: number, end: number, step: number): Promise<PromMatrix> {
    if (!this.baseUrl) return Promise.reject(new MetricsUnavailableError("Metrics are off: no Prometheus is configured (KULE_PROMETHEUS_URL)."));
    // Align the window to the step so concurrent viewers ask the very same question.
    const s = Math.floor(start / step) * step;
    const e = Math.floor(end / step) * step;
    const key = `${query}|${s}|${e}|${step}`;
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && now - hit.at < this.opts.ttlMs) return hit.value;
    const value = this.fetchRange(query, s, e, step);
    this.cache.set(key, { at: now, value });
    value.catch(() => this.cache.delete(key));
    if (this.cache.size > 500) for (const [k, v] of this.cache) if (now - v.at >= this.opts.ttlMs) this.cache.delete(k);
    return value;
  }

  private async fetchRange(query: string, start: number, end: number, step: number): Promise<PromMatrix> {
    this.queriesSent++;
    const params = new URLSearchParams({ query, start: String(start), end: String(end), step: String(step) });
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/api/v1/query_range?${params}`, { signal: AbortSignal.timeout(this.opts.timeoutMs) });
    } catch {
      throw new MetricsUnavailableError(`Prometheus at ${this.baseUrl} does not answer (or took over ${this.opts.timeoutMs / 1000} s).`);
    }
    const body = (await res.json().catch(() => null)) as { status: string; data?: PromMatrix; error?: string } | null;
    if (!res.ok || body?.status !== "success" || !body.data) throw new MetricsUnavailableError(`Prometheus refused a query: ${body?.error ?? res.status}`);
    return body.data;
  }
}
