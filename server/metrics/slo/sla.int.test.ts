import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { createCaller } from "../../routers/root.ts";
import { makeActor, testDb, testDrivers } from "../../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../../test/gateway-kit.ts";
import { startClusterSync } from "../../cluster/sync.ts";
import type { Actor } from "../../auth/actor.ts";
import { PrometheusClient } from "../prometheus-client.ts";
import { SLO_RULES_FILE } from "./rules-sync.ts";
import type { SloRuleOptions } from "./slo-rules.ts";
import { freePort } from "../../../scripts/lib/proc.ts";
import { startPrometheus, type RunningPrometheus } from "../../../scripts/lib/prometheus.ts";

/**
 * The SRE workbook's windows scaled down so a test sees alerts go pending then firing: the fast
 * burn compares 20 s and 10 s windows and fires after 4 s; production uses 1 h, 5 min and 2 min.
 */
const TEST_WINDOWS: SloRuleOptions = {
  alerts: [
    { name: "KuleSloBurnFast", severity: "page", burnRate: 14.4, long: "20s", short: "10s", for: "4s" },
    { name: "KuleSloBurnMedium", severity: "page", burnRate: 6, long: "60s", short: "15s", for: "30s" },
    { name: "KuleSloBurnSlow", severity: "ticket", burnRate: 1, long: "3m", short: "60s", for: "2m" },
  ],
  budgetWindow: "30d",
};

let stopSync: () => void;
let gw: Awaited<ReturnType<typeof startTestGateway>>;
let prom: RunningPrometheus;
let prometheus: PrometheusClient;
let operator: Actor;
const api = () => createCaller({ db: testDb(), actor: operator, ip: "127.0.0.1", drivers: testDrivers(), prometheus });

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  gw = await startTestGateway();
  const running = await startPrometheus({
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-prom-sla-")),
    port: await freePort(),
    sdTargets: [
      { job: "kule-sim", url: `${inject("simUrl")}/sd` },
      { job: "kule-gateway", url: `${gw.gateway.adminUrl}/sd` },
    ],
    scrapeIntervalSeconds: 1,
  });
  if (!running) throw new Error("No prometheus binary: apt-get install -y prometheus");
  prom = running;
  prometheus = new PrometheusClient(prom.url, { ttlMs: 300, rules: { dir: prom.rulesDir, options: TEST_WINDOWS } });
  operator = await makeActor("operator");
});
afterAll(async () => {
  await testDrivers().sim.clearFaults();
  await prom?.stop();
  await gw?.close();
  stopSync?.();
});

/** Calls both endpoints as fast as they answer until stopped. */
function load(secret: string, slugs: string[]) {
  let running = true;
  const done = Promise.all(
    slugs.map(async (model) => {
      while (running) {
        const r = await fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${secret}` }, body: JSON.stringify({ model, messages: [{ role: "user", content: "x" }], max_tokens: 3 }) });
        await r.arrayBuffer();
        await new Promise((res) => setTimeout(res, 20));
      }
    }),
  );
  return async () => {
    running = false;
    await done;
  };
}

async function ruleGroups(): Promise<string[]> {
  const body = (await (await fetch(`${prom.url}/api/v1/rules`)).json()) as { data: { groups: { name: string }[] } };
  return body.data.groups.map((g) => g.name);
}

describe("SLA status and burn-rate alerts against a real Prometheus scraping the simulator and the gateway", () => {
  it("an SLO change writes the rules and reloads Prometheus; errors injected into one endpoint turn it red and page (pending, then firing) while the other stays green", async () => {
    const healthy = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const broken = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey();
    await gw.gateway.config.reload();

    for (const ep of [healthy, broken]) {
      const r = await api().endpoint.updateSlo({ endpointId: ep.endpoint.id, expectedRevision: ep.endpoint.revision, sloAvailabilityPct: 99.9, sloP99LatencyMs: 5000, sloTtftMs: null });
      expect(r.rules.state).toBe("applied");
    }
    const file = fs.readFileSync(path.join(prom.rulesDir, SLO_RULES_FILE), "utf8");
    expect(file).toContain(`kule-slo:${broken.endpoint.slug}`);
    expect(await ruleGroups()).toEqual(expect.arrayContaining([`kule-slo:${healthy.endpoint.slug}`, `kule-slo:${broken.endpoint.slug}`]));
    // The change is audited, and a stale revision is refused.
    const audit = await testDb().auditEvent.findFirst({ where: { action: "endpoint.slo.update", targetId: broken.endpoint.id } });
    expect(audit?.after).toMatchObject({ sloAvailabilityPct: 99.9, sloP99LatencyMs: 5000 });
    await expect(api().endpoint.updateSlo({ endpointId: broken.endpoint.id, expectedRevision: broken.endpoint.revision, sloAvailabilityPct: 99, sloP99LatencyMs: 5000, sloTtftMs: null })).rejects.toMatchObject({ code: "CONFLICT" });

    const status = async (id: string) => (await api().metrics.sla()).endpoints.find((e) => e.endpointId === id)!;
    const stop = load(t.secret, [healthy.endpoint.slug, broken.endpoint.slug]);
    try {
      await expect.poll(async () => [(await status(healthy.endpoint.id)).status, (await status(broken.endpoint.id)).status], { timeout: 90_000, interval: 500 }).toEqual(["green", "green"]);

      await testDrivers().sim.injectFault({ type: "version-errors", versionId: broken.versions[0]!.id, share: 0.5 });
      const seen: string[] = [];
      let healthyColours = new Set<string>();
      await expect
        .poll(
          async () => {
            const [b, h] = [await status(broken.endpoint.id), await status(healthy.endpoint.id)];
            healthyColours.add(h.status);
            const fast = b.slis.find((s) => s.kind === "availability")!.alerts.find((a) => a.name === "KuleSloBurnFast");
            if (fast && seen[seen.length - 1] !== fast.state) seen.push(fast.state);
            return { colour: b.status, fast: fast?.state };
          },
          { timeout: 90_000, interval: 400 },
        )
        .toEqual({ colour: "red", fast: "firing" });
      // Prometheus held it pending (its `for`) before it fired.
      expect(seen).toContain("pending");
      expect(seen.indexOf("pending")).toBeLessThan(seen.indexOf("firing"));
      const b = await status(broken.endpoint.id);
      const availability = b.slis.find((s) => s.kind === "availability")!;
      expect(availability.budgetLeft!).toBeLessThan(0);
      expect(availability.burnRate!).toBeGreaterThan(14.4);
      // The healthy endpoint kept its budget and never left green.
      expect([...healthyColours]).toEqual(["green"]);
      const h = await status(healthy.endpoint.id);
      expect(h.slis.find((s) => s.kind === "availability")).toMatchObject({ status: "green", budgetLeft: 1, alerts: [] });
      healthyColours = new Set();
    } finally {
      await stop();
      await testDrivers().sim.injectFault({ type: "version-errors", versionId: broken.versions[0]!.id, share: 0 });
    }
  }, 240_000);

  it("a 2000 ms p99 SLO is measured at 2000 ms: requests of about 1.3 s, all past the histogram's 1 s bucket, keep it green", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    // The version's replica answers through a server that holds every inference request 1.3 s.
    const backing = ep.replicas[0]!;
    const slow = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const hold = req.method === "POST" ? 1300 : 0;
        setTimeout(() => {
          void fetch(`${backing.url}${req.url}`, { method: req.method, headers: { "content-type": "application/json" }, body: req.method === "POST" ? Buffer.concat(chunks) : undefined }).then(async (up) => {
            res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? "application/json" });
            res.end(Buffer.from(await up.arrayBuffer()));
          });
        }, hold);
      });
    });
    const port = await freePort();
    await new Promise<void>((r) => slow.listen(port, "127.0.0.1", r));
    const held = await api().cluster.registerExternal({ endpointVersionId: ep.versions[0]!.id, url: `http://127.0.0.1:${port}`, region: "tr-ist" });
    await expect.poll(async () => (await testDb().replica.findUniqueOrThrow({ where: { id: held.id } })).state, { timeout: 20_000 }).toBe("ready");
    // An external server's region counts only once an admin has checked it (KVKK Art. 9).
    await createCaller({ db: testDb(), actor: await makeActor("admin"), ip: "127.0.0.1", drivers: testDrivers(), prometheus }).kvkk.regions.verify({ replicaId: held.id, evidence: "a test server on this host" });
    await testDb().replica.update({ where: { id: backing.id }, data: { state: "failed", reason: "test: taken out" } });
    const t = await tenantWithKey();
    await gw.gateway.config.reload();
    expect((await api().endpoint.updateSlo({ endpointId: ep.endpoint.id, expectedRevision: ep.endpoint.revision, sloAvailabilityPct: 99.9, sloP99LatencyMs: 2000, sloTtftMs: null })).rules.state).toBe("applied");
    const stop = load(t.secret, [ep.endpoint.slug]);
    const latency = async () => (await api().metrics.sla()).endpoints.find((e) => e.endpointId === ep.endpoint.id)!.slis.find((s) => s.kind === "latency")!;
    try {
      const sel = `endpoint=${JSON.stringify(ep.endpoint.slug)}`;
      const count = async (q: string) => Number((await prometheus.query(q))[0]?.value[1] ?? 0);
      await expect.poll(() => count(`sum(kule_gateway_request_duration_seconds_count{${sel}})`), { timeout: 60_000, interval: 500 }).toBeGreaterThan(3);
      await expect.poll(async () => (await latency()).errorRatio, { timeout: 30_000, interval: 500 }).not.toBeNull();
      // Every request took over a second: read at the 1 s bucket, as before, all of them would be bad.
      expect(await count(`sum(kule_gateway_request_duration_seconds_bucket{${sel},le="1"})`)).toBe(0);
      expect(await latency()).toMatchObject({ thresholdMs: 2000, errorRatio: 0, status: "green" });
    } finally {
      await stop();
      slow.close();
    }
  }, 120_000);

  it("a tenant's charts carry only its own traffic; an operator's explore box runs PromQL and names a bad query's error", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const busy = await tenantWithKey();
    const quiet = await tenantWithKey();
    await gw.gateway.config.reload();
    const asTenant = async (tenantId: string) => createCaller({ db: testDb(), actor: await makeActor("tenant", tenantId), ip: null, drivers: testDrivers(), prometheus });
    const [busyApi, quietApi] = [await asTenant(busy.tenant.id), await asTenant(quiet.tenant.id)];
    const peak = (c: Awaited<ReturnType<typeof busyApi.metrics.tenantCharts>>) => {
      if (!c.available) throw new Error(c.reason.key);
      const rps = c.charts.find((x) => x.id === "rps")!;
      return Math.max(0, ...rps.rows.flatMap((r) => rps.series.map((s) => r[s] ?? 0)));
    };
    const stop = load(busy.secret, [ep.endpoint.slug]);
    try {
      await expect.poll(async () => peak(await busyApi.metrics.tenantCharts({ range: "15m" })), { timeout: 90_000, interval: 1000 }).toBeGreaterThan(1);
      const mine = await busyApi.metrics.tenantCharts({ range: "15m" });
      expect(mine.available && mine.charts.find((c) => c.id === "rps")!.series).toContain(ep.endpoint.slug);
      // The same endpoint, the same moment: the other tenant sees none of it.
      expect(peak(await quietApi.metrics.tenantCharts({ range: "15m" }))).toBe(0);

      const x = await api().metrics.explore({ query: `sum by (tenant) (rate(kule_gateway_requests_total{endpoint="${ep.endpoint.slug}"}[30s]))`, range: "15m" });
      expect(x.available && x.series).toEqual([`{tenant="${busy.tenant.slug}"}`]);
      expect(x.available && x.table[0]!.value).toBeGreaterThan(0);
      await expect(api().metrics.explore({ query: "sum(rate(kule_gateway_requests_total[1m]", range: "1h" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/^query: .*parse error/) });
    } finally {
      await stop();
    }
  }, 150_000);

  it("DCGM charts of a MIG-partitioned GPU show each instance, a node shows each GPU, and an XID shows as an event", async () => {
    const gpu = await testDb().gpu.findFirstOrThrow({ where: { node: { hostname: "fra-1" }, index: 1 } });
    const mig = await testDb().gpu.findFirstOrThrow({ where: { node: { hostname: "llm-2" }, index: 0 } });
    await expect
      .poll(
        async () => {
          const c = await api().metrics.gpuCharts({ scope: { kind: "gpu", uuid: mig.uuid }, range: "15m" });
          return c.available ? c.charts.find((x) => x.id === "gr")!.series.sort() : [];
        },
        { timeout: 60_000, interval: 1000 },
      )
      // NVML's instance ids follow the placement: a 3g at slot 0 is #2, a 1g at slot 4 is #11.
      .toEqual(["MIG 1g.10gb #11", "MIG 3g.40gb #2"]);
    await testDrivers().sim.injectFault({ type: "gpu-xid", gpuUuid: gpu.uuid, xid: 79 });
    await expect
      .poll(
        async () => {
          const c = await api().metrics.gpuCharts({ scope: { kind: "node", hostname: "fra-1" }, range: "15m" });
          return c.available ? c.xidEvents.map((e) => `${e.device}: XID ${e.xid}`) : [];
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toEqual(["GPU 1: XID 79"]);
    const node = await api().metrics.gpuCharts({ scope: { kind: "node", hostname: "fra-1" }, range: "15m" });
    expect(node.available && node.charts.find((c) => c.id === "temp")!.series.sort()).toEqual(["GPU 0", "GPU 1"]);
    expect(node.available && node.devices.map((d) => d.uuid).sort()).toContain(gpu.uuid);
  }, 150_000);
});
