import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor, testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { runSliderLoad, type Change } from "../test/slider-load.ts";

let stopSync: () => void;
const gateways: Awaited<ReturnType<typeof startTestGateway>>[] = [];

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  gateways.push(await startTestGateway(), await startTestGateway());
});
afterAll(async () => {
  for (const g of gateways) await g.close();
  stopSync?.();
});

describe("the canary slider under load", () => {
  it("100 slider moves and 10 rollbacks at 300 req/s over two gateways: no failed request, shares within 2 points, changes everywhere within 1 s", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }, { weight: 0, device: { host: "cpu-1" } }]);
    const [stable, canary] = ep.versions;
    await testDb().endpointVersion.update({ where: { id: stable!.id }, data: { lastFullAt: new Date() } });
    const t = await tenantWithKey();
    for (const g of gateways) await g.gateway.config.reload();
    const operator = caller(await makeActor("operator"));
    let revision = (await operator.endpoint.get({ id: ep.endpoint.id })).revision;
    const change = (after: { revision: number; versions: { modelVersion: { version: string }; weight: number }[] }): Change => {
      revision = after.revision;
      return { revision, savedAt: Date.now(), weights: Object.fromEntries(after.versions.map((v) => [v.modelVersion.version, v.weight])) };
    };
    const r = await runSliderLoad({
      gateways: gateways.map((g) => g.base),
      secret: t.secret,
      slug: ep.endpoint.slug,
      rps: 300,
      moves: 100,
      rollbacks: 10,
      shortMs: 150,
      longMs: 4000,
      longEvery: 10,
      initial: { revision, savedAt: Date.now(), weights: { "1.0": 100, "2.0": 0 } },
      setCanaryWeight: async (w) =>
        change(await operator.rollout.setWeights({ endpointId: ep.endpoint.id, expectedRevision: revision, weights: [{ endpointVersionId: stable!.id, weight: 100 - w }, { endpointVersionId: canary!.id, weight: w }] })),
      rollback: async () => change(await operator.rollout.rollback({ endpointId: ep.endpoint.id, expectedRevision: revision })),
    });
    console.log(JSON.stringify(r));
    expect(r.failures).toEqual([]);
    expect(r.failed).toBe(0);
    expect(r.slider_moves).toBe(100);
    expect(r.rollbacks).toBe(10);
    expect(r.requests).toBeGreaterThan(15_000);
    expect(r.windows_checked).toBeGreaterThanOrEqual(10);
    expect(r.max_share_error_points).toBeLessThanOrEqual(2);
    expect(r.propagation_p99_ms).toBeLessThanOrEqual(1000);
  }, 180_000);
});
