import { createClient } from "redis";
import type { Limiter } from "./limits.ts";

/**
 * The token buckets of limits.ts kept in Redis, so every gateway process draws from the same
 * buckets. One Lua script checks and takes from all of a request's buckets atomically.
 * KEYS: bucket keys; ARGV: now (ms), cost, then one capacity per key.
 * Returns 0 when allowed, else the seconds to wait (as a string, for precision).
 */
const TAKE = `
local now = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local charge = tonumber(ARGV[3])
local wait = 0
local tokens = {}
for i, key in ipairs(KEYS) do
  local cap = tonumber(ARGV[3 + i])
  local s = redis.call('HMGET', key, 't', 'at')
  local t = tonumber(s[1]) or cap
  local at = tonumber(s[2]) or now
  t = math.min(cap, t + (now - at) / 60000 * cap)
  tokens[i] = t
  if charge == 0 and (t < cost or t <= 0) then
    wait = math.max(wait, (math.max(cost, 1) - t) / cap * 60)
  end
end
if wait > 0 then return tostring(wait) end
for i, key in ipairs(KEYS) do
  redis.call('HSET', key, 't', tokens[i] - cost, 'at', now)
  redis.call('PEXPIRE', key, 120000)
end
return '0'
`;

function connectClient(url: string) {
  const client = createClient({ url });
  client.on("error", () => {});
  return client.connect();
}

export class RedisLimiter implements Limiter {
  private constructor(private readonly client: Awaited<ReturnType<typeof connectClient>>) {}

  static async connect(url: string): Promise<RedisLimiter> {
    return new RedisLimiter(await connectClient(url));
  }

  private async run(buckets: { key: string; capacity: number }[], cost: number, charge: boolean): Promise<number> {
    if (!buckets.length) return 0;
    const res = await this.client.eval(TAKE, {
      keys: buckets.map((b) => `kule:limit:${b.key}`),
      arguments: [String(Date.now()), String(cost), charge ? "1" : "0", ...buckets.map((b) => String(b.capacity))],
    });
    return Number(res);
  }

  take(buckets: { key: string; capacity: number }[], cost: number) {
    return this.run(buckets, cost, false);
  }

  async charge(buckets: { key: string; capacity: number }[], cost: number) {
    await this.run(buckets, cost, true);
  }

  async close() {
    await this.client.quit().catch(() => {});
  }
}
