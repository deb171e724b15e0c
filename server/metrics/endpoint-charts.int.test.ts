import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../routers/root.ts";
import { makeActor, testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { PrometheusClient } from "./prometheus-client.ts";
import type { RunningPrometheus } from "../../scripts/lib/prometheus.ts";
import { prometheusScrapingGateway } from "../test/prometheus-kit.ts";

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

describe("endpoint charts from a real Prometheus scraping the gateway", () => {
  it("shows requests by version and latency percentiles as traffic flows, and 20 viewers cost one set of queries", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey();
    await gw.gateway.config.reload();
    const operator = await makeActor("operator");
    const prometheus = new PrometheusClient(prom.url);
    const api = createCaller({ db: testDb(), actor: operator, ip: null, drivers: testDrivers(), prometheus });
    let running = true;
    const load = (async () => {
      while (running) {
        const r = await fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${t.secret}` }, body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "x" }], max_tokens: 3 }) });
        await r.arrayBuffer();
      }
    })();
    try {
      await expect
        .poll(
          async () => {
            const c = await api.metrics.endpointCharts({ endpointId: ep.endpoint.id, range: "15m" });
            if (!c.available) return 0;
            const rps = c.charts.find((x) => x.id === "rps")!;
            return Math.max(0, ...rps.rows.map((r) => r["v1.0"] ?? 0));
          },
          { timeout: 90_000, interval: 1000 },
        )
        .toBeGreaterThan(1);
      const before = prometheus.queriesSent;
      const views = await Promise.all(Array.from({ length: 20 }, () => api.metrics.endpointCharts({ endpointId: ep.endpoint.id, range: "15m" })));
      expect(prometheus.queriesSent - before).toBeLessThanOrEqual(10);
      const latency = views[0]!.available ? views[0]!.charts.find((x) => x.id === "latency")! : null;
      expect(latency?.series).toEqual(["P50", "P95", "P99"]);
      expect(latency!.rows.some((r) => typeof r.P99 === "number" && r.P99 > 0)).toBe(true);
      // Before the traffic began there was no data: gaps, not zeros.
      expect(latency!.rows[0]!.P99).toBeNull();
    } finally {
      running = false;
      await load;
    }
  }, 150_000);

  it("says metrics are off, without failing, when Prometheus does not answer", async () => {
    const operator = await makeActor("operator");
    const ep = await testDb().endpoint.findFirstOrThrow();
    const api = createCaller({ db: testDb(), actor: operator, ip: null, drivers: testDrivers(), prometheus: new PrometheusClient("http://127.0.0.1:9") });
    const c = await api.metrics.endpointCharts({ endpointId: ep.id, range: "1h" });
    expect(c).toEqual({ available: false, reason: { key: "noAnswer", values: expect.objectContaining({ url: expect.any(String) }) } });
  });
});
