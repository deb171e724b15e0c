/**
 * What each replica's engine says of its own load, read from its /metrics page (vLLM's
 * num_requests_running/waiting and KV-cache use, Triton's pending count), and what the gateway
 * learns from it: how many calls at once the replica takes before it queues them itself. The
 * overload gate (gate.ts) holds calls past that in its own fair queue instead of the engine's
 * first-come line. A replica whose page says nothing of the kind is never counted saturated.
 */

/** An engine's own figures, as last read. */
export interface EngineReading {
  running: number;
  waiting: number;
  /** KV-cache use, 0..1; null when the engine does not say. */
  kvUsage: number | null;
}

/** KV-cache use at which a replica is saturated even with nothing waiting: the next long prompt would preempt. */
export const KV_SATURATED = 0.95;

const LINE = /^(vllm:num_requests_running|vllm:num_requests_waiting|vllm:kv_cache_usage_perc|vllm:gpu_cache_usage_perc|nv_inference_pending_request_count|nv_inference_exec_count)(?:\{[^}]*\})?\s+([0-9.eE+-]+|NaN)/gm;

/** The engine's load from its Prometheus text; null when it names none of the series (not a vLLM or Triton server). */
export function parseEngineMetrics(text: string): EngineReading | null {
  let running: number | null = null;
  let waiting: number | null = null;
  let kv: number | null = null;
  for (const m of text.matchAll(LINE)) {
    const v = Number(m[2]);
    if (!Number.isFinite(v)) continue;
    if (m[1] === "vllm:num_requests_running") running = (running ?? 0) + v;
    else if (m[1] === "vllm:num_requests_waiting" || m[1] === "nv_inference_pending_request_count") waiting = (waiting ?? 0) + v;
    else if (m[1] === "vllm:kv_cache_usage_perc") kv = v;
    else if (m[1] === "vllm:gpu_cache_usage_perc") kv ??= v;
  }
  if (running === null && waiting === null) return null;
  return { running: running ?? 0, waiting: waiting ?? 0, kvUsage: kv };
}

/**
 * The calls at once a replica takes, learned: unknown (Infinity) until its engine first queues;
 * then what it was running when it did (its batch is full: max_num_seqs, or the KV cache), shared
 * out over the gateway's processes. While it keeps up with the gateway holding calls back (nothing
 * waiting, cache not full) the limit creeps up by one a reading, so a limit learned under a burst
 * of long prompts is not kept forever.
 */
export function nextLimit(limit: number, r: EngineReading, gatewayInFlight: number, processes: number): number {
  const share = (n: number) => Math.max(1, Math.floor(n / processes));
  if (r.waiting > 0 || (r.kvUsage !== null && r.kvUsage >= KV_SATURATED)) return Math.min(limit, share(Math.max(1, r.running)));
  if (limit !== Infinity && gatewayInFlight >= limit) return limit + 1;
  return limit;
}

/** Reads every replica's page on a timer and keeps each one's learned limit. */
export class EngineLoad {
  /** Each replica's learned limit; a replica not in it is not limited. */
  readonly limits = new Map<string, number>();
  private readonly readings = new Map<string, EngineReading>();
  /** Replicas whose page is no engine's: asked again only now and then. */
  private readonly silentUntil = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly opts: {
      /** The replicas to read: id and base URL. */
      replicas: () => Iterable<{ id: string; url: string }>;
      /** The gateway's own calls outstanding at a replica. */
      inFlight: (id: string) => number;
      /** A replica's /metrics page as text, by its base URL; null when it has none. */
      fetchText: (url: string) => Promise<string | null>;
      processes: number;
      everyMs: number;
    },
  ) {}

  /** The calls at once `id` takes (Infinity: not known to be limited). */
  limit = (id: string): number => this.limits.get(id) ?? Infinity;
  reading = (id: string): EngineReading | undefined => this.readings.get(id);

  start() {
    this.timer = setInterval(() => void this.readAll(), this.opts.everyMs);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
  }

  async readAll() {
    const now = Date.now();
    const replicas = [...this.opts.replicas()];
    // A replica gone from the config takes its limit with it.
    const live = new Set(replicas.map((r) => r.id));
    for (const m of [this.limits, this.readings, this.silentUntil]) for (const id of m.keys()) if (!live.has(id)) m.delete(id);
    await Promise.all(
      replicas.map(async ({ id, url }) => {
        if ((this.silentUntil.get(id) ?? 0) > now) return;
        const text = await this.opts.fetchText(url).catch(() => null);
        const r = text === null ? null : parseEngineMetrics(text);
        if (!r) return void this.silentUntil.set(id, now + 60_000);
        this.readings.set(id, r);
        const limit = nextLimit(this.limit(id), r, this.opts.inFlight(id), this.opts.processes);
        if (limit !== Infinity) this.limits.set(id, limit);
      }),
    );
  }
}
