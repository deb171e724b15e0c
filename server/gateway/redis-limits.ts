import { createClient } from "redis";
import type { Bucket, Limiter, Take, TakeResult } from "./limits.ts";

/**
 * The token buckets of limits.ts kept in Redis, so every gateway process draws from the same
 * buckets. One Lua script checks and takes from all of a request's buckets atomically.
 * KEYS: bucket keys; ARGV: now (ms), charge (1: take regardless, into debt), then a capacity and
 * a cost per key. Returns "0" when allowed, else "<seconds to wait> <key short longest>".
 */
const TAKE = `
local now = tonumber(ARGV[1])
local charge = tonumber(ARGV[2])
local wait = 0
local short = ''
local tokens = {}
for i, key in ipairs(KEYS) do
  local cap = tonumber(ARGV[1 + 2 * i])
  local cost = tonumber(ARGV[2 + 2 * i])
  local s = redis.call('HMGET', key, 't', 'at')
  local t = tonumber(s[1]) or cap
  local at = tonumber(s[2]) or now
  t = math.min(cap, t + (now - at) / 60000 * cap)
  tokens[i] = t - cost
  if charge == 0 and (t < cost or t <= 0) then
    local w = (math.max(cost, 1) - t) / cap * 60
    if w > wait then wait = w; short = key end
  end
end
if wait > 0 then return tostring(wait) .. ' ' .. short end
for i, key in ipairs(KEYS) do
  redis.call('HSET', key, 't', tokens[i], 'at', now)
  redis.call('PEXPIRE', key, 120000)
end
return '0'
`;

const PREFIX = "kule:limit:";

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

  private async run(takes: Take[], charge: boolean): Promise<TakeResult> {
    if (!takes.length) return { wait: 0, bucket: null };
    const res = String(
      await this.client.eval(TAKE, {
        keys: takes.map((t) => PREFIX + t.key),
        arguments: [String(Date.now()), charge ? "1" : "0", ...takes.flatMap((t) => [String(t.capacity), String(t.cost)])],
      }),
    );
    const [wait, key] = res.split(" ");
    return { wait: Number(wait), bucket: key ? key.slice(PREFIX.length) : null };
  }

  take(takes: Take[]) {
    return this.run(takes, false);
  }

  async charge(buckets: Bucket[], cost: number) {
    await this.run(
      buckets.map((b) => ({ ...b, cost })),
      true,
    );
  }

  async close() {
    await this.client.quit().catch(() => {});
  }
}
