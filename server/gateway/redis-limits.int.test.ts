import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { RedisLimiter } from "./redis-limits.ts";
import { env } from "../env.ts";

// CI and development machines run Redis on 127.0.0.1:6379; REDIS_URL may point elsewhere.
const redisUrl = env.REDIS_URL ?? "redis://127.0.0.1:6379";
let stopSync: () => void;

beforeAll(() => {
  stopSync = startClusterSync(testDb(), testDrivers());
});
afterAll(() => stopSync?.());

describe("limits shared through Redis", () => {
  it("holds a key's requests-per-minute across two gateway processes", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey({ rpmLimit: 4 });
    const [l1, l2] = await Promise.all([RedisLimiter.connect(redisUrl), RedisLimiter.connect(redisUrl)]);
    const [a, b] = await Promise.all([startTestGateway({ limiter: l1 }), startTestGateway({ limiter: l2 })]);
    try {
      const call = (base: string) =>
        fetch(`${base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${t.secret}` }, body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "x" }], max_tokens: 1 }) });
      const statuses = [];
      for (const base of [a.base, b.base, a.base, b.base, a.base, b.base]) statuses.push((await call(base)).status);
      // Four requests in the minute, whichever gateway took them; then 429 on both.
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      const refused = await call(a.base);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await Promise.all([l1.close(), l2.close()]);
    }
  });

  it("takes from every bucket or none, and a charge puts a tokens bucket in debt, as the in-process buckets do", async () => {
    const l = await RedisLimiter.connect(redisUrl);
    const id = randomUUID();
    const rpm = { key: `rpm:k:${id}`, capacity: 2, cost: 1 };
    const tpm = { key: `tpm:t:${id}`, capacity: 600, cost: 0 };
    try {
      await l.charge([tpm], 900);
      const refused = await l.take([rpm, tpm]);
      expect(refused.bucket).toBe(tpm.key);
      expect(refused.wait).toBeGreaterThan(29);
      expect(refused.wait).toBeLessThanOrEqual(30.1);
      // Nothing was taken from the requests bucket: both of its requests are still there.
      expect(await l.take([rpm])).toEqual({ wait: 0, bucket: null });
      expect(await l.take([rpm])).toEqual({ wait: 0, bucket: null });
      expect((await l.take([rpm])).bucket).toBe(rpm.key);
    } finally {
      await l.close();
    }
  });
});
