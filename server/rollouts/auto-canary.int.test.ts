import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor, testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { PrometheusClient } from "../metrics/prometheus-client.ts";
import type { RunningPrometheus } from "../../scripts/lib/prometheus.ts";
import { prometheusScrapingGateway } from "../test/prometheus-kit.ts";
import { startRolloutWorker } from "./worker.ts";

let stopSync: () => void;
let gw: Awaited<ReturnType<typeof startTestGateway>>;
let prom: RunningPrometheus;

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  gw = await startTestGateway();
  prom = await prometheusScrapingGateway(gw.gateway.adminUrl!);
});
afterAll(async () => {
  await prom?.stop();
  await gw?.close();
  stopSync?.();
});

async function canaryEndpoint() {
  const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }, { weight: 0, device: { host: "cpu-1" } }]);
  await testDb().endpointVersion.update({ where: { id: ep.versions[0]!.id }, data: { lastFullAt: new Date() } });
  return ep;
}

/** Steady traffic: `concurrency` callers in a loop until stopped. */
function load(secret: string, slug: string, concurrency: number) {
  let running = true;
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) {
      const r = await fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${secret}` }, body: JSON.stringify({ model: slug, messages: [{ role: "user", content: "x" }], max_tokens: 3 }) });
      await r.arrayBuffer();
      await new Promise((res) => setTimeout(res, 20));
    }
  });
  return async () => {
    running = false;
    await Promise.all(loops);
  };
}

describe("automatic canary against a real Prometheus", () => {
  it("rolls back a version that fails 5% of requests by itself, and promotes a healthy one through every step", async () => {
    const [bad, good] = [await canaryEndpoint(), await canaryEndpoint()];
    const t = await tenantWithKey();
    await gw.gateway.config.reload();
    const operator = caller(await makeActor("operator"));
    await operator.cluster.injectFault({ type: "version-errors", endpointVersionId: bad.versions[1]!.id, share: 0.05 });
    const stopLoads = [load(t.secret, bad.endpoint.slug, 4), load(t.secret, good.endpoint.slug, 4)];
    const worker = startRolloutWorker({ db: testDb(), drivers: testDrivers(), prometheus: new PrometheusClient(prom.url, { ttlMs: 500, timeoutMs: 3000 }) }, 500);
    try {
      // Let Prometheus see both versions' traffic baseline (stable only) first.
      await new Promise((r) => setTimeout(r, 3000));
      // Window 10 s; a breach is judged against the SLO (99.9%) plus a 1-point margin.
      // The versions differ only in errors: a wide latency margin keeps a loaded machine's p95 noise (seen:
      // a rollback on p95 against stable before the error rate crossed) from deciding in its place.
      const analysis = { windowSeconds: 10, latencyMarginPct: 20, latencyMarginMs: 1000, errorMarginPoints: 1, minRequests: 20 };
      const steps = [{ weight: 20, holdSeconds: 6 }, { weight: 50, holdSeconds: 6 }, { weight: 100, holdSeconds: 1 }];
      const start = async (ep: typeof bad) =>
        operator.rollout.startPlan({ endpointId: ep.endpoint.id, canaryVersionId: ep.versions[1]!.id, expectedRevision: (await operator.endpoint.get({ id: ep.endpoint.id })).revision, steps, analysis });
      const [badPlan, goodPlan] = [await start(bad), await start(good)];
      const stateOf = async (id: string) => (await testDb().rollout.findUniqueOrThrow({ where: { id } })).state;
      await expect.poll(() => stateOf(badPlan.id), { timeout: 90_000, interval: 250 }).toBe("rolled_back");
      await expect.poll(() => stateOf(goodPlan.id), { timeout: 120_000, interval: 250 }).toBe("succeeded");

      // The failing canary went back before it ever reached 100% (however slow the machine was to show it).
      const badRollout = await testDb().rollout.findUniqueOrThrow({ where: { id: badPlan.id } });
      expect(badRollout.stepIndex).toBeLessThan(steps.length - 1);
      const badActions = (await operator.rollout.history({ endpointId: bad.endpoint.id })).map((h) => h.action);
      expect(badActions).not.toContain("rollout.auto.promote");
      const weightsOf = async (ep: typeof bad) => {
        const versions = (await operator.endpoint.get({ id: ep.endpoint.id })).versions;
        return ep.versions.map((asked) => versions.find((v) => v.id === asked.id)!);
      };
      expect((await weightsOf(bad)).map((v) => v.weight)).toEqual([100, 0]);
      const [last] = await operator.rollout.history({ endpointId: bad.endpoint.id });
      expect(last).toMatchObject({ action: "rollout.auto.rollback", by: "Kule (automatic)", after: { decision: { breach: { metric: "error_rate", against: "slo" } } } });
      const breach = (last!.after as { decision: { breach: { value: number; threshold: number } } }).decision.breach;
      expect(breach.value).toBeGreaterThan(breach.threshold);
      expect(breach.threshold).toBeCloseTo(0.011, 5);

      expect((await weightsOf(good)).map((v) => [v.weight, v.state])).toEqual([[0, "draining"], [100, "ready"]]);
      const goodHistory = (await operator.rollout.history({ endpointId: good.endpoint.id })).map((h) => h.action);
      expect(goodHistory.slice(0, 3)).toEqual(["rollout.auto.promote", "rollout.auto.advance", "rollout.start"]);
    } finally {
      await worker.stop();
      for (const s of stopLoads) await s();
    }
  }, 240_000);
});
