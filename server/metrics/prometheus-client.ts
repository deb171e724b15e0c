import type { PromMatrix } from "./adapters.ts";
import type { SloRuleOptions } from "./slo/slo-rules.ts";
import type { MetricsOffWhy } from "./chart-keys.ts";

/**
 * Prometheus is off, away or refusing. Recognised by a brand, not `instanceof`: Next bundles this
 * module more than once (the instrumentation hook and the routes), and the shared client built by
 * one copy throws errors of that copy's classes.
 */
export class MetricsUnavailableError extends Error {
  readonly kuleMetricsUnavailable = true;
  /** The same reason as a message key, for the page to say in its reader's language; logs keep `message`. */
  readonly why: MetricsOffWhy;
  constructor(message: string, why: MetricsOffWhy = { key: "refused", values: { detail: message } }) {
    super(message);
    this.why = why;
  }
}

/** Prometheus answered, but refused the query itself (bad PromQL): the asker's fault, not an outage. */
export class PromQueryError extends MetricsUnavailableError {
  readonly kulePromQueryError = true;
}

export function isMetricsUnavailable(e: unknown): e is MetricsUnavailableError {
  return e instanceof Error && (e as Partial<MetricsUnavailableError>).kuleMetricsUnavailable === true;
}

export function isPromQueryError(e: unknown): e is PromQueryError {
  return e instanceof Error && (e as Partial<PromQueryError>).kulePromQueryError === true;
}

/** Where generated rules go for this Prometheus, and (tests only) shorter SLO windows. */
export interface PrometheusRulesTarget {
  dir: string;
  options?: SloRuleOptions;
}

export type PromVector = { metric: Record<string, string>; value: [number, string] }[];

/**
 * Reads Prometheus' HTTP API. Time is cut into periods of `ttlMs` (the pages' refresh interval):
 * within one, identical queries share one answer (and one request in flight), and charts ask
 * about the period's start (`now()`), so any number of viewers, whatever their phase, cost
 * Prometheus one set of queries per refresh.
 */
export class PrometheusClient {
  private cache = new Map<string, { at: number; value: Promise<unknown> }>();
  queriesSent = 0;

  private readonly opts: { ttlMs: number; timeoutMs: number };

  constructor(
    readonly baseUrl: string | null,
    opts: { ttlMs?: number; timeoutMs?: number; rules?: PrometheusRulesTarget } = {},
  ) {
    this.opts = { ttlMs: opts.ttlMs ?? 5000, timeoutMs: opts.timeoutMs ?? 3000 };
    this.rules = opts.rules ?? null;
  }

  readonly rules: PrometheusRulesTarget | null;

  /** The start of the current cache period (ms): charts end there, so concurrent viewers ask the same question. */
  now(): number {
    return Math.floor(Date.now() / this.opts.ttlMs) * this.opts.ttlMs;
  }

  queryRange(query: string, start: number, end: number, step: number): Promise<PromMatrix> {
    // Align the window to the step so concurrent viewers ask the very same question.
    const s = Math.floor(start / step) * step;
    const e = Math.floor(end / step) * step;
    return this.cached(`${query}|${s}|${e}|${step}`, () => this.get<PromMatrix>("query_range", { query, start: String(s), end: String(e), step: String(step) }));
  }

  /** An instant query: the value now, or at `at` (ms) for a closed period (an hour's energy). */
  query(query: string, at?: number): Promise<PromVector> {
    const params: Record<string, string> = at === undefined ? { query } : { query, time: String(at / 1000) };
    return this.cached(`instant|${query}|${at ?? ""}`, () => this.get<{ result: PromVector }>("query", params).then((d) => d.result));
  }

  private cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.baseUrl) return Promise.reject(new MetricsUnavailableError("Metrics are off: no Prometheus is configured (KULE_PROMETHEUS_URL).", { key: "off" }));
    const period = Math.floor(Date.now() / this.opts.ttlMs);
    const hit = this.cache.get(key);
    if (hit && hit.at === period) return hit.value as Promise<T>;
    const value = load();
    this.cache.set(key, { at: period, value });
    value.catch(() => this.cache.delete(key));
    if (this.cache.size > 500) for (const [k, v] of this.cache) if (v.at !== period) this.cache.delete(k);
    return value;
  }

  private async get<T>(api: "query" | "query_range", params: Record<string, string>): Promise<T> {
    this.queriesSent++;
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/api/v1/${api}?${new URLSearchParams(params)}`, { signal: AbortSignal.timeout(this.opts.timeoutMs) });
    } catch {
      throw new MetricsUnavailableError(`Prometheus at ${this.baseUrl} does not answer (or took over ${this.opts.timeoutMs / 1000} s).`, { key: "noAnswer", values: { url: this.baseUrl ?? "", seconds: this.opts.timeoutMs / 1000 } });
    }
    const body = (await res.json().catch(() => null)) as { status: string; data?: T; error?: string; errorType?: string } | null;
    // 400 bad_data / 422 execution: the query is at fault, and says why.
    if ((res.status === 400 || res.status === 422) && body?.error) throw new PromQueryError(body.error);
    if (!res.ok || body?.status !== "success" || !body.data) throw new MetricsUnavailableError(`Prometheus refused a query: ${body?.error ?? res.status}`);
    return body.data;
  }
}
