import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createCaller } from "../routers/root.ts";
import { makeActor, testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import type { Actor } from "../auth/actor.ts";
import { PrometheusClient } from "../metrics/prometheus-client.ts";
import type { SloRuleOptions } from "../metrics/slo/slo-rules.ts";
import { freePort } from "../../scripts/lib/proc.ts";
import { startPrometheus, type RunningPrometheus } from "../../scripts/lib/prometheus.ts";
import { startAlertmanager, type RunningAlertmanager } from "../../scripts/lib/alertmanager.ts";
import { handleAlertWebhook } from "./webhook.ts";
import type { AlertmanagerTarget } from "./config-sync.ts";
import { postAlerts, stateAlerts, stateSnapshot } from "./state-alerts.ts";

/** The SRE workbook's fast burn scaled down: 20 s and 10 s windows, firing after 4 s. */
const TEST_WINDOWS: SloRuleOptions = {
  alerts: [{ name: "KuleSloBurnFast", severity: "page", burnRate: 14.4, long: "20s", short: "10s", for: "4s" }],
  budgetWindow: "30d",
};
const TOKEN = "test-alert-webhook-token-0123456789";

/** A local HTTP server: Kule's webhook route (over the test database), or an operator's receiver that keeps what it gets. */
async function serve(handle: (req: Request) => Promise<Response>) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, body: req.method === "POST" ? Buffer.concat(chunks) : undefined });
      void handle(request).then(async (r) => {
        res.writeHead(r.status, { "content-type": "application/json" });
        res.end(await r.text());
      });
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let stopSync: () => void;
let gw: Awaited<ReturnType<typeof startTestGateway>>;
let prom: RunningPrometheus;
let am: RunningAlertmanager;
let kule: Awaited<ReturnType<typeof serve>>;
let oncall: Awaited<ReturnType<typeof serve>>;
const oncallGot: { status: string; alerts: { labels: Record<string, string> }[] }[] = [];
let prometheus: PrometheusClient;
let target: AlertmanagerTarget;
let operator: Actor;
const api = () => createCaller({ db: testDb(), actor: operator, ip: "127.0.0.1", drivers: testDrivers(), prometheus, alertmanager: target });

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  gw = await startTestGateway();
  kule = await serve((req) => handleAlertWebhook(testDb(), TOKEN, req));
  oncall = await serve(async (req) => {
    oncallGot.push((await req.json()) as (typeof oncallGot)[number]);
    return Response.json({});
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kule-alerts-"));
  const tokenFile = path.join(dataDir, "alert-webhook-token");
  fs.writeFileSync(tokenFile, TOKEN);
  const options = { kuleWebhookUrl: `${kule.url}/api/alerts/webhook`, kuleTokenFile: tokenFile, groupWait: "1s", groupInterval: "2s" };
  const runningAm = await startAlertmanager({ dataDir, port: await freePort(), config: options });
  if (!runningAm) throw new Error("No Alertmanager binary: apt-get install -y prometheus-alertmanager");
  am = runningAm;
  target = { url: am.url, configFile: am.configFile, options };
  const running = await startPrometheus({
    dataDir,
    port: await freePort(),
    sdTargets: [
      { job: "kule-sim", url: `${inject("simUrl")}/sd` },
      { job: "kule-gateway", url: `${gw.gateway.adminUrl}/sd` },
    ],
    scrapeIntervalSeconds: 1,
    alertmanagerUrl: am.url,
  });
  if (!running) throw new Error("No prometheus binary: apt-get install -y prometheus");
  prom = running;
  prometheus = new PrometheusClient(prom.url, { ttlMs: 300, rules: { dir: prom.rulesDir, options: TEST_WINDOWS } });
  operator = await makeActor("operator");
});
afterAll(async () => {
  await prom?.stop();
  await am?.stop();
  await kule?.close();
  await oncall?.close();
  await gw?.close();
  stopSync?.();
});

function load(secret: string, model: string) {
  let running = true;
  const done = (async () => {
    while (running) {
      const r = await fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${secret}` }, body: JSON.stringify({ model, messages: [{ role: "user", content: "x" }], max_tokens: 3 }) });
      await r.arrayBuffer();
      await new Promise((res) => setTimeout(res, 20));
    }
  })();
  return async () => {
    running = false;
    await done;
  };
}

describe("alerts: Prometheus → Alertmanager → Kule's webhook → the alert history, and the receivers operators configure", () => {
  it("a receiver amtool refuses is not saved and says why; a good one is rendered into alertmanager.yml and reloaded", async () => {
    const before = await testDb().auditEvent.count({ where: { action: { startsWith: "alert.receiver" } } });
    await expect(
      api().alert.createReceiver({ kind: "email", name: "ops-mail", settings: { to: "ops@example.com", from: "kule@example.com", smarthost: "smtp.example.com" }, endpointSlugs: [], severities: [] }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/Alertmanager would refuse this configuration: .*missing port/) });
    expect(await testDb().alertReceiver.count({ where: { name: "ops-mail" } })).toBe(0);
    expect(await testDb().auditEvent.count({ where: { action: { startsWith: "alert.receiver" } } })).toBe(before);
    expect(fs.readFileSync(am.configFile, "utf8")).not.toContain("ops-mail");
  });

  it("errors injected into an endpoint fire its burn-rate alert into Kule's table and the operator's webhook; clearing them resolves it", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey();
    await gw.gateway.config.reload();
    const r = await api().alert.createReceiver({ kind: "webhook", name: `oncall-${ep.endpoint.slug}`, settings: { url: `${oncall.url}/hook` }, endpointSlugs: [ep.endpoint.slug], severities: ["page"] });
    expect(r.alertmanager.state).toBe("applied");
    expect(await testDb().auditEvent.findFirst({ where: { action: "alert.receiver.create", targetId: r.receiver.id } })).not.toBeNull();
    expect((await api().endpoint.updateSlo({ endpointId: ep.endpoint.id, expectedRevision: ep.endpoint.revision, sloAvailabilityPct: 99.9, sloP99LatencyMs: 5000, sloTtftMs: null })).rules.state).toBe("applied");

    const mine = async () => (await api().alert.list({ endpointId: ep.endpoint.id })).filter((a) => a.name === "KuleSloBurnFast" && a.slo === "availability");
    const stop = load(t.secret, ep.endpoint.slug);
    try {
      await expect.poll(async () => (await api().metrics.sla()).endpoints.find((e) => e.endpointId === ep.endpoint.id)?.status, { timeout: 60_000, interval: 500 }).toBe("green");
      expect(await mine()).toEqual([]);
      await testDrivers().sim.injectFault({ type: "version-errors", versionId: ep.versions[0]!.id, share: 0.5 });
      await expect.poll(async () => (await mine()).map((a) => a.status), { timeout: 90_000, interval: 500 }).toEqual(["firing"]);
      const [firing] = await mine();
      expect(firing).toMatchObject({ severity: "page", longWindow: "20s", shortWindow: "10s", endpoint: { id: ep.endpoint.id }, summary: `${ep.endpoint.slug}: availability error budget burning 14.4× too fast` });
      // …and as a message key and values, for a page to word in its own language.
      expect(firing!.text).toEqual({ key: "sloBurn", values: { endpoint: ep.endpoint.slug, slo: "availability", rate: 14.4 } });
      // The overview and the SLA board list what is firing now.
      expect((await api().alert.list({ status: "firing" })).map((a) => a.id)).toContain(firing!.id);
      // The operator's receiver got it too, routed by endpoint and severity.
      await expect.poll(() => oncallGot.some((d) => d.status === "firing" && d.alerts.some((a) => a.labels.endpoint === ep.endpoint.slug && a.labels.alertname === "KuleSloBurnFast")), { timeout: 30_000 }).toBe(true);

      await testDrivers().sim.injectFault({ type: "version-errors", versionId: ep.versions[0]!.id, share: 0 });
      await expect.poll(async () => (await mine()).map((a) => a.status), { timeout: 90_000, interval: 500 }).toEqual(["resolved"]);
      const [resolved] = await mine();
      expect(resolved!.id).toBe(firing!.id); // the same episode, now ended
      expect(resolved!.endsAt!.getTime()).toBeGreaterThan(resolved!.startsAt.getTime());
    } finally {
      await stop();
      await testDrivers().sim.injectFault({ type: "version-errors", versionId: ep.versions[0]!.id, share: 0 });
    }
  }, 240_000);

  it("a replica that failed reaches the endpoint's alert history by the same path, and resolves once Kule stops reporting it", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const failed = await testDb().replica.create({ data: { endpointVersionId: ep.versions[0]!.id, driver: "sim", region: "tr-ank", state: "failed", reason: "CUDA error: out of memory" } });
    await postAlerts(target, stateAlerts(await stateSnapshot(testDb())), 3000);
    const mine = async () => (await api().alert.list({ endpointId: ep.endpoint.id })).filter((a) => a.name === "KuleReplicaFailed");
    await expect.poll(async () => (await mine()).map((a) => [a.status, a.description]), { timeout: 30_000, interval: 300 }).toEqual([["firing", "CUDA error: out of memory"]]);
    expect((await mine())[0]!.subject).toBe(failed.id);
    expect((await mine())[0]!.text).toEqual({ key: "replicaFailed", values: { endpoint: ep.endpoint.slug, version: "1.0" } });
    // Not posted again (the replica was replaced): its end passes and Alertmanager resolves it.
    await testDb().replica.update({ where: { id: failed.id }, data: { state: "stopped" } });
    await expect.poll(async () => (await mine()).map((a) => a.status), { timeout: 30_000, interval: 300 }).toEqual(["resolved"]);
  }, 60_000);

  it("a maintenance window silences an endpoint's alerts in Alertmanager, audited, and can be ended early", async () => {
    const s = await api().alert.createSilence({ endpointSlug: "chat", minutes: 30, comment: "driver upgrade on llm-1" });
    const listed = await api().alert.silences();
    expect(listed.available && listed.silences.find((x) => x.id === s.id)).toMatchObject({ state: "active", matchers: ["endpoint=chat"], comment: "driver upgrade on llm-1", createdBy: operator.email });
    expect(await testDb().auditEvent.findFirst({ where: { action: "alert.silence.create", targetId: s.id } })).not.toBeNull();
    await api().alert.expireSilence({ silenceId: s.id });
    const after = await api().alert.silences();
    expect(after.available && after.silences.map((x) => x.id)).not.toContain(s.id);
    expect(await testDb().auditEvent.findFirst({ where: { action: "alert.silence.expire", targetId: s.id } })).not.toBeNull();
  });

  it("Kule's webhook refuses a delivery without its token, and a malformed one naming the field", async () => {
    const post = (auth: string | null, body: unknown) => fetch(`${kule.url}/api/alerts/webhook`, { method: "POST", headers: auth ? { authorization: auth } : {}, body: JSON.stringify(body) });
    expect((await post(null, {})).status).toBe(401);
    expect((await post("Bearer wrong-token-wrong-token-wrong", {})).status).toBe(401);
    const bad = await post(`Bearer ${TOKEN}`, { version: "4", status: "firing", receiver: "kule", alerts: [{ status: "firing", labels: {}, startsAt: "yesterday", endsAt: "", fingerprint: "x" }] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^alerts\.0\.startsAt: /);
  });
});
