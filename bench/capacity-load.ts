/**
 * The capacity bench's load: an open loop of chat calls (request i leaves at start + i/rate,
 * whatever earlier ones did) through the gateway, with TTFT measured at the client from the
 * first content chunk of a stream, and what the answers say about where and how they ran.
 */
export interface CallResult {
  sentAt: number;
  status: number;
  ttftMs: number | null;
}

export type RateAt = (tMs: number) => number;

async function oneCall(url: string, secret: string, slug: string, stream: boolean, n: number): Promise<CallResult> {
  const sentAt = Date.now();
  try {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      // A different question each call: the simulator's answer length follows the text (16 tokens and up,
      // 64 at most here), so the engine sees a mix of lengths rather than one answer over and over.
      body: JSON.stringify({ model: slug, messages: [{ role: "user", content: `Summarise capacity plan ${n} in one line.` }], max_tokens: stream ? 64 : 8, stream }),
    });
    if (!stream || res.status !== 200 || !res.body) {
      await res.arrayBuffer();
      return { sentAt, status: res.status, ttftMs: null };
    }
    let ttftMs: number | null = null;
    const decoder = new TextDecoder();
    const reader = res.body.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      // The first token, not the stream's opening chunk (role "assistant", content ""), which a
      // replica sends before the call is even scheduled and so would hide the time it queued.
      if (ttftMs === null && /"content":"[^"]/.test(decoder.decode(r.value))) ttftMs = Date.now() - sentAt;
    }
    return { sentAt, status: res.status, ttftMs };
  } catch {
    return { sentAt, status: 0, ttftMs: null };
  }
}

/** Sends at `rate(t)` calls per second for `seconds`; resolves with every call's result once all have answered. */
export async function openLoop(opts: { url: string; secret: string; slug: string; seconds: number; rate: RateAt; stream: boolean }): Promise<CallResult[]> {
  const start = Date.now();
  const calls: Promise<CallResult>[] = [];
  let due = start;
  while (due < start + opts.seconds * 1000) {
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    calls.push(oneCall(opts.url, opts.secret, opts.slug, opts.stream, calls.length));
    due += 1000 / Math.max(0.1, opts.rate(due - start));
  }
  return Promise.all(calls);
}

/**
 * A working day's load on a business API, compressed: each entry is an hour's multiple of the base
 * rate at its start (night low, a morning climb, a lunchtime dip, the afternoon peak, an evening
 * tail), read linearly between hours.
 */
export const DAY_SHAPE = [0.4, 0.4, 0.4, 0.4, 0.4, 0.5, 0.6, 0.8, 2, 3.5, 5, 5, 4, 4.5, 5, 5, 4.5, 3.5, 2.5, 2, 1.5, 1.2, 0.8, 0.5];

export function dailyRate(baseRps: number, hourMs: number): RateAt {
  return (t) => {
    const h = (t / hourMs) % 24;
    const i = Math.floor(h);
    return baseRps * (DAY_SHAPE[i]! + (DAY_SHAPE[(i + 1) % 24]! - DAY_SHAPE[i]!) * (h - i));
  };
}

export function p99(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)]!;
}

/**
 * Seconds from `stepAt` until TTFT p99, over a sliding 10 s window of calls sent, is back under
 * the SLO for good (0 when it never left it).
 */
export function backInSlo(results: CallResult[], stepAt: number, endAt: number, sloMs: number): { seconds: number; worstP99Ms: number } {
  let lastBad = stepAt;
  let worst = 0;
  for (let t = stepAt; t + 10_000 <= endAt; t += 1000) {
    const w = results.filter((r) => r.sentAt >= t && r.sentAt < t + 10_000 && r.ttftMs !== null).map((r) => r.ttftMs!);
    const p = p99(w);
    if (p === null) continue;
    worst = Math.max(worst, p);
    if (p > sloMs) lastBad = t + 10_000;
  }
  return { seconds: (lastBad - stepAt) / 1000, worstP99Ms: worst };
}

/** Changes of direction among the scale events of one steady stretch of load. */
export function oscillations(actions: string[]): number {
  let n = 0;
  for (let i = 1; i < actions.length; i++) if (actions[i] !== actions[i - 1]) n++;
  return n;
}

/** The version's replicas holding a GPU, sampled: GPU-seconds, the peak, and seconds spent at each count; with the calls in flight on them when `inFlight` is given. */
export class FleetMeter {
  private last = Date.now();
  private readonly start = this.last;
  gpuSeconds = 0;
  peak = 0;
  secondsAt: Record<number, number> = {};
  /** [ms since the meter started, replicas holding a GPU, calls running + waiting on the ready ones, seconds this sample covers]. */
  samples: [number, number, number, number][] = [];
  constructor(
    private readonly count: () => Promise<number>,
    private readonly inFlight: () => Promise<number> = async () => 0,
  ) {}
  async sample() {
    const [n, f] = await Promise.all([this.count(), this.inFlight()]);
    const now = Date.now();
    this.gpuSeconds += (n * (now - this.last)) / 1000;
    this.secondsAt[n] = (this.secondsAt[n] ?? 0) + (now - this.last) / 1000;
    this.samples.push([now - this.start, n, f, (now - this.last) / 1000]);
    this.last = now;
    this.peak = Math.max(this.peak, n);
  }
}

/**
 * The fixed fleet a day is measured against, from what the run measured: the calls in flight
 * while the load stood at its peak (the stretches where `rate` is at its maximum), divided by the
 * policy's own per-replica target, rounded up; so the yardstick does not depend on what the
 * autoscaler did. Beside it: the replicas the autoscaler held for most of those stretches, and a
 * follower that ran ceil(in flight / target) at every sample (no band, no windows, no cold start).
 */
export function peakFleet(samples: FleetMeter["samples"], rate: RateAt, target: number, minReplicas: number) {
  const peakRate = Math.max(...samples.map(([t]) => rate(t)));
  const plateau = samples.filter(([t]) => rate(t) >= peakRate * 0.999);
  const inFlight = plateau.reduce((a, [, , f]) => a + f, 0) / Math.max(1, plateau.length);
  const held: Record<number, number> = {};
  for (const [, n, , dt] of plateau) held[n] = (held[n] ?? 0) + dt;
  const mostHeld = Number(Object.entries(held).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0);
  const idealSeconds = samples.reduce((a, [, , f, dt]) => a + Math.max(minReplicas, Math.ceil(f / target)) * dt, 0);
  return { plateauSeconds: plateau.reduce((a, [, , , dt]) => a + dt, 0), inFlight, replicas: Math.ceil(inFlight / target), mostHeld, idealSeconds };
}
