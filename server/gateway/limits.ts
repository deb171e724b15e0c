/**
 * Per-minute limits as token buckets: a bucket holds up to `capacity` (the per-minute limit) and
 * refills continuously at capacity/60 per second, so bursts up to the limit pass and the sustained
 * rate is the limit. In-process; with REDIS_URL the same buckets live in Redis (redis-limits.ts).
 */
export interface Limiter {
  /** Takes `cost` from every bucket, or none; returns 0 when allowed, else seconds until it would be. */
  take(buckets: { key: string; capacity: number }[], cost: number): Promise<number>;
  /** Charges tokens after the fact (a response's real token count): may go into debt, delaying the next request. */
  charge(buckets: { key: string; capacity: number }[], cost: number): Promise<void>;
}

export class MemoryLimiter implements Limiter {
  private buckets = new Map<string, { tokens: number; at: number }>();

  async take(buckets: { key: string; capacity: number }[], cost: number, now = Date.now()): Promise<number> {
    let wait = 0;
    const states = buckets.map((b) => {
      const s = this.buckets.get(b.key) ?? { tokens: b.capacity, at: now };
      const tokens = Math.min(b.capacity, s.tokens + ((now - s.at) / 60_000) * b.capacity);
      // A token bucket charged after the fact may be empty or in debt: wait until it is positive again.
      if (tokens < cost || tokens <= 0) wait = Math.max(wait, ((Math.max(cost, 1) - tokens) / b.capacity) * 60);
      return { key: b.key, tokens };
    });
    if (wait > 0) return wait;
    for (const s of states) this.buckets.set(s.key, { tokens: s.tokens - cost, at: now });
    return 0;
  }

  async charge(buckets: { key: string; capacity: number }[], cost: number, now = Date.now()) {
    for (const b of buckets) {
      const s = this.buckets.get(b.key) ?? { tokens: b.capacity, at: now };
      const tokens = Math.min(b.capacity, s.tokens + ((now - s.at) / 60_000) * b.capacity);
      this.buckets.set(b.key, { tokens: tokens - cost, at: now });
    }
  }
}
