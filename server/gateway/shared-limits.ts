import { createClient } from "redis";
import { MemoryLimiter, type Bucket, type Limiter, type Take, type TakeResult } from "./limits.ts";

/**
 * The token buckets of limits.ts shared by every gateway process through Redis, without a network
 * round trip on the hot path. The buckets live in Redis; each process *leases* tokens from them
 * (a fraction of a second's worth at the bucket's rate) and spends its lease locally. A lease
 * running low is topped up in the background; only a bucket this process has never seen (or one
 * it let go after two idle seconds) waits for Redis once.
 *
 * The bound, across any number N of gateways: a requests bucket is never overshot, since a token
 * leaves Redis before any gateway spends it. The price is the other way: up to N leases may sit
 * unspent in other gateways, so one gateway can refuse while another still holds a few of the
 * minute's requests (each lease is at most a quarter second's worth, and idle leases go back).
 * A tokens bucket is charged after the answer, as in one process: a gateway's debt reaches Redis
 * with its next top-up, started at once, so the overshoot is the tokens of calls already admitted.
 *
 * While Redis is away each process keeps its own buckets (MemoryLimiter): each limit then holds
 * per process, N times over at most, and the alarm is `redisDown`.
 */

/** How many seconds of a bucket's rate one lease holds. */
const LEASE_SECONDS = 0.25;
/** A lease not spent from for this long goes back to Redis, for the other gateways. */
const IDLE_MS = 2000;
const PREFIX = "kule:limit:";

/**
 * KEYS: bucket keys. ARGV: now (ms), then per key: capacity, `spent` (tokens this process spent
 * beyond its lease, or a negative amount it gives back), `want` (tokens to lease). Per key: refill,
 * settle `spent` (a bucket may go into debt), grant up to `want` of what is left. Returns, per key,
 * "<granted> <level after>".
 */
const LEASE = `
local now = tonumber(ARGV[1])
local out = {}
for i, key in ipairs(KEYS) do
  local cap = tonumber(ARGV[3 * i - 1])
  local spent = tonumber(ARGV[3 * i])
  local want = tonumber(ARGV[3 * i + 1])
  local s = redis.call('HMGET', key, 't', 'at')
  local t = tonumber(s[1]) or cap
  local at = tonumber(s[2]) or now
  t = math.min(cap, t + (now - at) / 60000 * cap)
  t = math.min(cap, t - spent)
  local grant = 0
  if want > 0 and t >= 1 then grant = math.min(want, math.floor(t)) end
  t = t - grant
  redis.call('HSET', key, 't', t, 'at', now)
  redis.call('PEXPIRE', key, 120000)
  out[i] = grant .. ' ' .. t
end
return out
`;

interface Lease {
  key: string;
  capacity: number;
  /** Tokens leased and not yet spent; below 0, spent beyond the lease (a tokens bucket's charge). */
  have: number;
  /** Redis had nothing to lease: refused locally until then (ms). */
  emptyUntil: number;
  lastUsed: number;
  topUp: Promise<void> | null;
}

type Client = Awaited<ReturnType<typeof connectClient>>;

/** A lease Redis has not answered by then counts as Redis away: a request never waits longer for it. */
const ANSWER_MS = 250;

function connectClient(url: string) {
  // Without the offline queue a command fails at once while the client reconnects, instead of
  // waiting (a request would hang on it); the limiter then holds its limits alone until Redis is back.
  const client = createClient({ url, disableOfflineQueue: true, socket: { connectTimeout: 1000 } });
  client.on("error", () => {});
  return client.connect();
}

const leaseSize = (capacity: number) => Math.max(1, Math.ceil((capacity / 60) * LEASE_SECONDS));
/** What a take needs in hand: a request's cost, or (a tokens bucket) to be out of debt. */
const needs = (t: Take) => Math.max(t.cost, Number.MIN_VALUE);

export class SharedLimiter implements Limiter {
  private readonly leases = new Map<string, Lease>();
  private readonly fallback = new MemoryLimiter();
  private readonly sweeper: NodeJS.Timeout;
  /** Redis did not answer the last lease: limits hold per process until it does. */
  redisDown = false;
  readonly shared = () => !this.redisDown;
  /** Leases asked of Redis (a figure for the benchmark: round trips per request). */
  leaseCalls = 0;

  private constructor(private readonly client: Client) {
    this.sweeper = setInterval(() => void this.returnIdle(), IDLE_MS / 2);
    this.sweeper.unref();
  }

  static async connect(url: string): Promise<SharedLimiter> {
    return new SharedLimiter(await connectClient(url));
  }

  private lease(b: Bucket): Lease {
    let l = this.leases.get(b.key);
    if (!l) this.leases.set(b.key, (l = { key: b.key, capacity: b.capacity, have: 0, emptyUntil: 0, lastUsed: Date.now(), topUp: null }));
    l.capacity = b.capacity; // an operator's new limit applies from the next lease
    return l;
  }

  take(takes: Take[]): Promise<TakeResult> {
    if (this.redisDown) return this.fallback.take(takes);
    const now = Date.now();
    const leases = takes.map((t) => this.lease(t));
    let refused: TakeResult = { wait: 0, bucket: null };
    const unseen: Lease[] = [];
    takes.forEach((t, i) => {
      const l = leases[i]!;
      if (l.have >= needs(t)) return;
      if (l.emptyUntil > now) {
        const wait = (l.emptyUntil - now) / 1000;
        if (wait > refused.wait) refused = { wait, bucket: t.key };
      } else unseen.push(l);
    });
    if (refused.wait > 0) return Promise.resolve(refused);
    // Nothing in hand and nothing known: ask Redis once, then decide on what it leased.
    if (unseen.length) return this.topUp(unseen).then(() => (this.redisDown ? this.fallback.take(takes) : this.decide(takes, leases, Date.now())));
    return Promise.resolve(this.decide(takes, leases, now));
  }

  /** All or none, from the leases in hand; a lease that runs low is topped up in the background. */
  private decide(takes: Take[], leases: Lease[], now: number): TakeResult {
    let short: TakeResult = { wait: 0, bucket: null };
    takes.forEach((t, i) => {
      const l = leases[i]!;
      if (l.have >= needs(t)) return;
      const wait = Math.max(0.001, (l.emptyUntil - now) / 1000, ((needs(t) - l.have) / l.capacity) * 60);
      if (wait > short.wait) short = { wait, bucket: t.key };
    });
    if (short.wait > 0) return short;
    takes.forEach((t, i) => {
      const l = leases[i]!;
      l.have -= t.cost;
      l.lastUsed = now;
    });
    this.topUpLow(leases);
    return short;
  }

  async charge(buckets: Bucket[], cost: number): Promise<void> {
    if (this.redisDown) return this.fallback.charge(buckets, cost);
    const leases = buckets.map((b) => this.lease(b));
    for (const l of leases) {
      l.have -= cost;
      l.lastUsed = Date.now();
    }
    this.topUpLow(leases);
  }

  private topUpLow(leases: Lease[]) {
    const low = leases.filter((l) => !l.topUp && l.have < leaseSize(l.capacity) / 2 && l.emptyUntil <= Date.now());
    if (low.length) void this.topUp(low);
  }

  /** One Redis call for all of them: settles what was spent beyond each lease and leases more. */
  private topUp(leases: Lease[]): Promise<void> {
    const pending = leases.filter((l) => l.topUp).map((l) => l.topUp!);
    const fresh = leases.filter((l) => !l.topUp);
    if (fresh.length) {
      const call = this.settle(fresh.map((l) => ({ lease: l, spent: Math.max(0, -l.have), want: leaseSize(l.capacity) })));
      for (const l of fresh) l.topUp = call;
      pending.push(call);
    }
    return Promise.all(pending).then(() => {});
  }

  private async settle(asks: { lease: Lease; spent: number; want: number }[]): Promise<void> {
    this.leaseCalls++;
    try {
      const answer = this.client.eval(LEASE, { keys: asks.map((a) => PREFIX + a.lease.key), arguments: [String(Date.now()), ...asks.flatMap((a) => [String(a.lease.capacity), String(a.spent), String(a.want)])] });
      answer.catch(() => {}); // settled by the race below, or late
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("Redis did not answer in time")), ANSWER_MS)));
      const replies = (await Promise.race([answer, late]).finally(() => clearTimeout(timer))) as string[];
      const now = Date.now();
      asks.forEach((a, i) => {
        const [granted, level] = replies[i]!.split(" ").map(Number) as [number, number];
        const l = a.lease;
        l.have += a.spent + granted; // the debt now lives in Redis
        // Nothing to lease: refuse locally until a token's worth has refilled there.
        l.emptyUntil = granted === 0 ? now + ((1 - level) / l.capacity) * 60_000 : 0;
      });
      this.redisDown = false;
    } catch {
      this.redisDown = true;
    } finally {
      for (const a of asks) a.lease.topUp = null;
    }
  }

  /** Leases idle for IDLE_MS go back to Redis (with any debt), and are forgotten here. */
  private async returnIdle() {
    const cutoff = Date.now() - IDLE_MS;
    const idle = [...this.leases.values()].filter((l) => l.lastUsed < cutoff && !l.topUp);
    if (!idle.length || this.redisDown) {
      if (this.redisDown) await this.settle([]); // a probe: is Redis back?
      return;
    }
    for (const l of idle) this.leases.delete(l.key);
    await this.settle(idle.filter((l) => l.have !== 0).map((l) => ({ lease: l, spent: -l.have, want: 0 })));
  }

  async close() {
    clearInterval(this.sweeper);
    // What this process holds goes back, so a restart does not strand a quarter second of every limit.
    await this.settle([...this.leases.values()].filter((l) => l.have !== 0).map((l) => ({ lease: l, spent: -l.have, want: 0 })));
    // A graceful close waits for Redis; with Redis away it would wait for ever.
    if (this.client.isReady) await this.client.close().catch(() => {});
    else this.client.destroy();
  }
}
