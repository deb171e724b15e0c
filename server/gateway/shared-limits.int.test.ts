import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { testDb, testDrivers } from "../test/harness.ts";
import { CuttableProxy, servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { gatewayMetrics } from "./metrics.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { SharedLimiter } from "./shared-limits.ts";
import { env } from "../env.ts";

// CI and development machines run Redis on 127.0.0.1:6379; REDIS_URL may point elsewhere.
const redisUrl = env.REDIS_URL ?? "redis://127.0.0.1:6379";
let stopSync: () => void;

beforeAll(() => {
  stopSync = startClusterSync(testDb(), testDrivers());
});
afterAll(() => stopSync?.());

describe("limits shared through Redis, spent from local leases", () => {
  it("holds a key's requests-per-minute across two gateway processes", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey({ rpmLimit: 4 });
    const [l1, l2] = await Promise.all([SharedLimiter.connect(redisUrl), SharedLimiter.connect(redisUrl)]);
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

  it("never lets two gateways together past a requests limit, and asks Redis about once a lease, not once a request", async () => {
    const limiters = await Promise.all([SharedLimiter.connect(redisUrl), SharedLimiter.connect(redisUrl)]);
    const id = randomUUID();
    const limit = { key: `rpm:t:${id}`, capacity: 120, cost: 1 };
    try {
      // Both gateways take as fast as they can for a second: 240 tries each against 120 a minute.
      let allowed = 0;
      const t0 = Date.now();
      await Promise.all(
        limiters.map(async (l) => {
          for (let i = 0; i < 240; i++) {
            if ((await l.take([limit])).wait === 0) allowed++;
            await new Promise((r) => setTimeout(r, 4));
          }
        }),
      );
      const seconds = (Date.now() - t0) / 1000;
      // The bound: the bucket (120) and its refill meanwhile (2 a second), never more.
      expect(allowed).toBeLessThanOrEqual(120 + Math.ceil(seconds * 2));
      // And not far under it: leases in hand cost at most a few of the minute's requests.
      expect(allowed).toBeGreaterThanOrEqual(115);

      // A busy bucket costs a Redis call per lease (a quarter second's worth), not per request.
      const fast = { key: `rpm:t:${randomUUID()}`, capacity: 600_000, cost: 1 };
      const before = limiters[0]!.leaseCalls;
      for (let i = 0; i < 2000; i++) expect((await limiters[0]!.take([fast])).wait).toBe(0);
      expect(limiters[0]!.leaseCalls - before).toBeLessThanOrEqual(5);
    } finally {
      await Promise.all(limiters.map((l) => l.close()));
    }
  });

  it("gives an idle gateway's lease back, so another can spend it", async () => {
    const [a, b] = await Promise.all([SharedLimiter.connect(redisUrl), SharedLimiter.connect(redisUrl)]);
    const limit = { key: `rpm:k:${randomUUID()}`, capacity: 2, cost: 1 };
    try {
      // a takes one and leases the other ahead; b finds nothing left.
      expect((await a.take([limit])).wait).toBe(0);
      await new Promise((r) => setTimeout(r, 100));
      expect((await b.take([limit])).wait).toBeGreaterThan(0);
      // Two idle seconds later a's lease is back in Redis, and b gets it.
      await new Promise((r) => setTimeout(r, 3200));
      expect((await b.take([limit])).wait).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("takes from every bucket or none, and a charge puts a tokens bucket in debt, as the in-process buckets do", async () => {
    const l = await SharedLimiter.connect(redisUrl);
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

  it("while Redis is away, each process holds each limit alone and says so on /metrics, instead of failing calls", async () => {
    const url = new URL(redisUrl);
    const proxy = new CuttableProxy(url.hostname, Number(url.port || 6379));
    await proxy.start();
    const l = await SharedLimiter.connect(`redis://127.0.0.1:${proxy.port}`);
    const metrics = gatewayMetrics({ inFlight: () => 0, callLog: { spooledRows: 0, heldRows: 0, journalFailing: false, spoolFailing: false, journalWriteErrors: 0 }, configAge: () => 0, limitsShared: l.shared });
    const shared = async () => (await metrics.registry.getSingleMetricAsString("kule_gateway_limits_shared")).match(/^kule_gateway_limits_shared (\d)$/m)?.[1];
    try {
      const bucket = { key: `rpm:k:${randomUUID()}`, capacity: 3, cost: 1 };
      expect((await l.take([bucket])).wait).toBe(0);
      expect(await shared()).toBe("1");
      proxy.sever();
      // Fresh buckets need Redis: with it away the process decides alone, and holds the limit itself.
      const alone = { key: `rpm:k:${randomUUID()}`, capacity: 3, cost: 1 };
      const waits = [];
      for (let i = 0; i < 4; i++) waits.push((await l.take([alone])).wait);
      expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
      expect(waits[3]).toBeGreaterThan(0);
      expect(l.shared()).toBe(false);
      expect(await shared()).toBe("0");
    } finally {
      await l.close();
      await proxy.close();
    }
  });
});
