/**
 * Per-minute limits as token buckets: a bucket holds up to `capacity` (the per-minute limit) and
 * refills continuously at capacity/60 per second, so bursts up to the limit pass and the sustained
 * rate is the limit. In-process; with REDIS_URL the same buckets live in Redis, spent from local leases (shared-limits.ts).
 */
export interface Bucket {
  /** `rpm:` or `tpm:`, then `t:` and a tenant id or `k:` and a key id. */
  key: string;
  capacity: number;
}

/** A bucket and what a request takes from it now: 1 from a requests bucket, 0 from a tokens one (charged after the answer). */
export interface Take extends Bucket {
  cost: number;
}

/** Allowed (`wait` 0), or the seconds until it would be and the bucket that is short longest. */
export interface TakeResult {
  wait: number;
  bucket: string | null;
}

export interface Limiter {
  /** Takes each bucket's cost from all of them, or from none if any is short: one check, one round trip. */
  take(takes: Take[]): Promise<TakeResult>;
  /** Charges tokens after the fact (a response's real token count): may go into debt, delaying the next request. */
  charge(buckets: Bucket[], cost: number): Promise<void>;
  /** Shared limiters: whether the limits are shared with the other gateways right now (false while Redis is away). */
  readonly shared?: () => boolean;
}

/** Seconds until a bucket holding `tokens` can give `cost` (and is out of debt). */
function secondsShort(tokens: number, cost: number, capacity: number): number {
  return tokens < cost || tokens <= 0 ? ((Math.max(cost, 1) - tokens) / capacity) * 60 : 0;
}

export class MemoryLimiter implements Limiter {
  private buckets = new Map<string, { tokens: number; at: number }>();

  private level(b: Bucket, now: number): number {
    const s = this.buckets.get(b.key) ?? { tokens: b.capacity, at: now };
    return Math.min(b.capacity, s.tokens + ((now - s.at) / 60_000) * b.capacity);
  }

  async take(takes: Take[], now = Date.now()): Promise<TakeResult> {
    const levels = takes.map((t) => this.level(t, now));
    let result: TakeResult = { wait: 0, bucket: null };
    takes.forEach((t, i) => {
      const wait = secondsShort(levels[i]!, t.cost, t.capacity);
      if (wait > result.wait) result = { wait, bucket: t.key };
    });
    if (result.wait > 0) return result;
    takes.forEach((t, i) => this.buckets.set(t.key, { tokens: levels[i]! - t.cost, at: now }));
    return result;
  }

  async charge(buckets: Bucket[], cost: number, now = Date.now()) {
    for (const b of buckets) this.buckets.set(b.key, { tokens: this.level(b, now) - cost, at: now });
  }
}
