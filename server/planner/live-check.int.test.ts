import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../routers/root.ts";
import { makeActor, testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { PrometheusClient } from "../metrics/prometheus-client.ts";
import { discoverReplicas } from "../metrics/prometheus/discovery.ts";
import type { RunningPrometheus } from "../../scripts/lib/prometheus.ts";
import { prometheusScrapingGateway } from "../test/prometheus-kit.ts";

let stopSync: () => void;
let gw: Awaited<ReturnType<typeof startTestGateway>>;
let prom: RunningPrometheus;
let sd: http.Server;

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  gw = await startTestGateway();
  // The app's replica discovery (what Prometheus reads in production), served from the Replica table.
  sd = http.createServer((_req, res) => void discoverReplicas(testDb()).then((groups) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(groups))));
  await new Promise<void>((r) => sd.listen(0, "127.0.0.1", () => r()));
  prom = await prometheusScrapingGateway(gw.gateway.adminUrl!, `http://127.0.0.1:${(sd.address() as AddressInfo).port}/`);
});
afterAll(async () => {
  await prom?.stop();
  await gw?.close();
  await new Promise((r) => sd?.close(r));
  stopSync?.();
});

describe("the planner's prediction against what Prometheus measures for a live endpoint", () => {
  it("shows predicted and measured TTFT, TPOT and tokens/s side by side with the error, for operators and admins only", async () => {
    const ep = await servedEndpoint("llm", [{ weight: 100, device: { host: "llm-1", gpu: 0 } }]);
    const t = await tenantWithKey();
    await gw.gateway.config.reload();
    const prometheus = new PrometheusClient(prom.url);
    const as = async (role: "operator" | "admin" | "tenant" | "auditor") => createCaller({ db: testDb(), actor: await makeActor(role), ip: null, drivers: testDrivers(), prometheus });
    const api = await as("operator");
    expect(await api.planner.live({ endpointId: ep.endpoint.id })).toMatchObject({ available: false, why: "no_traffic" });
    let running = true;
    const call = async () => {
      while (running) {
        const r = await fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${t.secret}` }, body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "Kapasite planlayıcısı için birkaç kelime." }], max_tokens: 24, stream: true }) });
        await r.arrayBuffer();
      }
    };
    const load = Promise.all([call(), call(), call()]);
    try {
      await expect
        .poll(async () => {
          const live = await api.planner.live({ endpointId: ep.endpoint.id });
          return live.available && live.rows.every((r) => r.measured !== null && r.errorPct !== null);
        }, { timeout: 90_000, interval: 1000 })
        .toBe(true);
      const live = await (await as("admin")).planner.live({ endpointId: ep.endpoint.id });
      if (!live.available) throw new Error("no longer available");
      expect(live.gpu).toBe("NVIDIA H100 80GB HBM3");
      expect(live.load.requestsPerS).toBeGreaterThan(0);
      expect(live.load.answerTokens).toBeGreaterThan(1);
      expect(live.load.batch).toBeGreaterThan(0);
      expect(live.rows.map((r) => r.metric)).toEqual(["ttftP99Ms", "tpotP99Ms", "tokensPerSPerReplica"]);
      for (const r of live.rows) {
        expect(r.predicted).toBeGreaterThan(0);
        expect(r.errorPct).toBeCloseTo((r.predicted / r.measured! - 1) * 100, 0);
      }
    } finally {
      running = false;
      await load;
    }
    for (const role of ["tenant", "auditor"] as const) await expect((await as(role)).planner.live({ endpointId: ep.endpoint.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(api.planner.live({ endpointId: "cmissingendpoint0000000000" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  }, 150_000);
});
