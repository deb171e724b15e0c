/**
 * Proof against the real formats: the recorded pages of every exporter version Kule supports
 * (fixtures/, written from the projects' published output), replayed as live exporters to a
 * real Prometheus that finds the engines through the same http_sd groups Kule publishes. Every
 * endpoint panel, GPU chart, fleet cell, recording rule and alert must return data for each
 * version, or say why not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { freePort } from "../../../scripts/lib/proc.ts";
import { startPrometheus, type RunningPrometheus } from "../../../scripts/lib/prometheus.ts";
import { gatewayMetrics } from "../../gateway/metrics.ts";
import { EngineLoad } from "../../gateway/overload/engine-load.ts";
import { overloadMetrics } from "../../gateway/overload/metrics.ts";
import { FairScheduler } from "../../gateway/overload/scheduler.ts";
import { replayFile, servePage } from "../../test/exposition-replay.ts";
import { chartsOf } from "../endpoint-charts.ts";
import { gpuCharts, hostnameOf } from "../gpu-charts.ts";
import { gpuFleet } from "../gpu-fleet.ts";
import { PrometheusClient } from "../prometheus-client.ts";
import { replicaTargetGroups, type ReplicaTarget, type SdTargetGroup } from "../prometheus/discovery.ts";

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const RULES = path.resolve(import.meta.dirname, "../prometheus/rules");
const fixture = (name: string) => path.join(FIXTURES, name);

/** vLLM 0.8–0.9.1 printed only the V0-era names: the 0.10.2 page without the names added in 0.9.2 and 0.10.2. */
const withoutNewVllmNames = (text: string) =>
  text
    .split("\n")
    .filter((l) => !/^(# (HELP|TYPE) )?vllm:(kv_cache_usage_perc|inter_token_latency_seconds|prefix_cache_(queries|hits))/.test(l))
    .join("\n");

interface Case {
  name: string;
  vllm: { file: string; transform?: (t: string) => string }[];
  dcgm: string;
  hostLabel: "hostname" | "Hostname";
  mig: boolean;
}

const CASES: Case[] = [
  { name: "vLLM 0.30.0, dcgm-exporter 4.6.0-4.8.3 whole GPUs, Triton 2.68.0", vllm: [{ file: "vllm-v1-0.30.0.prom" }], dcgm: "dcgm-exporter-4.6.0-4.8.3-hostname-whole-gpus.prom", hostLabel: "hostname", mig: false },
  { name: "vLLM 0.30.0, dcgm-exporter 4.6.0-4.8.3 with MIG, Triton 2.68.0", vllm: [{ file: "vllm-v1-0.30.0.prom" }], dcgm: "dcgm-exporter-4.6.0-4.8.3-hostname-mig.prom", hostLabel: "hostname", mig: true },
  { name: "vLLM 0.10.2, dcgm-exporter 4.5.3-4.8.2 whole GPUs, Triton 2.68.0", vllm: [{ file: "vllm-v0-0.10.prom" }], dcgm: "dcgm-exporter-4.5.3-4.8.2-whole-gpus.prom", hostLabel: "Hostname", mig: false },
  {
    name: "vLLM 0.10.2 and ≤ 0.9.1 names only, dcgm-exporter 4.5.3-4.8.2 with MIG, Triton 2.68.0",
    vllm: [{ file: "vllm-v0-0.10.prom" }, { file: "vllm-v0-0.10.prom", transform: withoutNewVllmNames }],
    dcgm: "dcgm-exporter-4.5.3-4.8.2-mig.prom",
    hostLabel: "Hostname",
    mig: true,
  },
];

const NODE = "gpu-node-07";
const TRITON_SLUG = "detect";
const vllmSlug = (i: number) => (i === 0 ? "chat" : `chat-${i}`);

interface Running {
  prom: RunningPrometheus;
  client: () => PrometheusClient;
  uuids: string[];
  close(): Promise<void>;
}

async function startCase(c: Case): Promise<Running> {
  const servers: { url: string; close(): Promise<void> }[] = [];
  // Kule's own gateway (the gateway panels read it), with traffic to every endpoint.
  const gw = gatewayMetrics({ inFlight: () => 0, callLog: { spooledRows: 0, heldRows: 0, journalFailing: false, spoolFailing: false, journalWriteErrors: 0 }, configAge: () => 1 });
  // Its overload queue, saturated: a call held at each endpoint (no config: endpoints by slug), some shed, tokens served.
  const slugs = [vllmSlug(0), vllmSlug(1), TRITON_SLUG];
  const queues = new Map(slugs.map((slug) => [slug, new FairScheduler({ capacity: () => 0, maxQueue: 10 })]));
  for (const s of queues.values()) void s.submit({ tenantId: "t", weight: 1, priority: "batch", cost: 100, deadline: Date.now() + 3_600_000 }, Date.now());
  const overload = overloadMetrics(gw.registry, { queues, engines: new EngineLoad({ replicas: () => [], inFlight: () => 0, fetchText: async () => null, processes: 1, everyMs: 1000 }) }, () => null);
  let calls = 0;
  const gateway = await servePage(() => {
    // Traffic arrives between scrapes: the page is the registry as it stands, grown a little.
    for (let i = 0; i < 20; i++, calls++)
      for (const endpoint of slugs) {
        gw.observe({ endpoint, version: "1.0", tenant: "t", status: calls % 10 === 0 ? 500 : 200 }, 0.2 + (i % 5) / 10, 0.05, 40, 20, undefined, 0.0004 + (i % 3) / 10_000);
        overload.served(endpoint, "t", 60);
        if (i % 5 === 0) overload.shed(endpoint, "t", "batch", "deadline");
      }
    return gw.registry.metrics();
  });
  servers.push(gateway);
  const replicas: ReplicaTarget[] = [];
  for (const [i, v] of c.vllm.entries()) {
    const page = await servePage(replayFile(fixture(v.file), v.transform));
    servers.push(page);
    replicas.push({ id: `${vllmSlug(i)}-r0`, endpointSlug: vllmSlug(i), versionLabel: "1.0", versionId: `v-${i}`, engine: "vllm", driver: "kubernetes", region: "tr-ist", metricsUrl: page.url, maxNumSeqs: 256, node: NODE });
  }
  const triton = await servePage(replayFile(fixture("triton-2.68.0.prom")));
  servers.push(triton);
  replicas.push({ id: "detect-r0", endpointSlug: TRITON_SLUG, versionLabel: "1.0", versionId: "v-t", engine: "triton", driver: "external", region: "tr-ist", metricsUrl: triton.url, maxNumSeqs: null, node: null });
  const dcgmText = fs.readFileSync(fixture(c.dcgm), "utf8");
  const dcgm = await servePage(replayFile(fixture(c.dcgm)));
  servers.push(dcgm);

  // Kule's discovery for the engines; the cluster's own for dcgm-exporter and the gateway (no Kule labels).
  const others: SdTargetGroup[] = [dcgm, gateway].map((s) => ({ targets: [new URL(s.url).host], labels: {} }));
  const sd = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(req.url === "/replicas" ? replicaTargetGroups(replicas) : others));
  });
  await new Promise<void>((r) => sd.listen(0, "127.0.0.1", () => r()));
  const sdBase = `http://127.0.0.1:${(sd.address() as AddressInfo).port}`;
  const prom = await startPrometheus({
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-prom-formats-")),
    port: await freePort(),
    sdTargets: [
      { job: "engines-found-by-kule", url: `${sdBase}/replicas` },
      { job: "cluster-exporters", url: `${sdBase}/others` },
    ],
    scrapeIntervalSeconds: 1,
  });
  if (!prom) throw new Error("No prometheus binary: apt-get install -y prometheus");
  const uuids = [...new Set([...dcgmText.matchAll(/UUID="([^"]+)"/g)].map((m) => m[1]!))];
  return {
    prom,
    // A fresh client each time: the app's client keeps answers for 5 s.
    client: () => new PrometheusClient(prom.url),
    uuids,
    close: async () => {
      await prom.stop();
      await Promise.all(servers.map((s) => s.close()));
      await new Promise((r) => sd.close(r));
    },
  };
}

const running = new Map<string, Running>();

beforeAll(async () => {
  // All versions at once: Prometheus needs ~20 s of scrapes before a 15-minute chart's last step has a rate.
  const started = await Promise.all(CASES.map(startCase));
  CASES.forEach((c, i) => running.set(c.name, started[i]!));
}, 90_000);

afterAll(async () => {
  await Promise.all([...running.values()].map((r) => r.close()));
});

/** Chart titles without a single non-null value, with the chart's note when it says why. */
function emptyCharts(charts: { id: string; rows: Record<string, number | null>[]; series: string[]; note?: { key: string } }[]) {
  return charts.filter((c) => !c.rows.some((r) => c.series.some((s) => r[s] !== null && r[s] !== undefined))).map((c) => `${c.id}${c.note ? ` (${c.note.key})` : ""}`);
}

async function instant(prom: RunningPrometheus, q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const body = (await (await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent(q)}`)).json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] }; error?: string };
  if (body.status !== "success") throw new Error(`${q}: ${body.error}`);
  return body.data.result;
}

/** Every rule of Kule's rule files: recording rules by name; alerts by their expression with the threshold taken off. */
function ruleProbes(): { what: string; query: string }[] {
  const probes: { what: string; query: string }[] = [];
  for (const file of fs.readdirSync(RULES).filter((f) => f.endsWith(".yml") && !f.endsWith(".test.yml"))) {
    const text = fs.readFileSync(path.join(RULES, file), "utf8");
    for (const m of text.matchAll(/- record: (\S+)/g)) probes.push({ what: `recording rule ${m[1]}`, query: m[1]! });
    for (const m of text.matchAll(/- alert: (\S+)\n\s+expr: (?:>-\n((?:\s{10}.*\n)+)|(.*)\n)/g)) {
      const expr = (m[2] ?? m[3]!).replace(/\s+/g, " ").trim();
      probes.push({ what: `alert ${m[1]}`, query: expr.replace(/\s*(==|!=|>=|<=|>|<)\s*[\d.]+$/, "") });
    }
  }
  return probes;
}

describe.each(CASES)("$name", (c) => {
  const r = () => running.get(c.name)!;

  it("every endpoint panel of the vLLM and the Triton endpoint has data", async () => {
    const endpoints = [...c.vllm.map((_, i) => ({ slug: vllmSlug(i), metrics: "vllm" as const })), { slug: TRITON_SLUG, metrics: "triton" as const }];
    await expect
      .poll(
        async () => {
          const empty: string[] = [];
          for (const e of endpoints) {
            const out = await chartsOf(r().client(), e, { range: "15m" });
            if (!out.available) return [`${e.slug}: ${out.reason}`];
            empty.push(...emptyCharts(out.charts).map((t) => `${e.slug}: ${t}`));
          }
          return empty;
        },
        { timeout: 45_000, interval: 2000 },
      )
      .toEqual([]);
    const chat = await chartsOf(r().client(), endpoints[0]!, { range: "15m" });
    expect(chat.available && chat.charts.map((x) => x.id)).toEqual(expect.arrayContaining(["tpot", "queue", "kv", "batch"]));
    const detect = await chartsOf(r().client(), endpoints.at(-1)!, { range: "15m" });
    expect(detect.available && detect.charts.map((x) => x.id)).toEqual(expect.arrayContaining(["triton-pending", "triton-time", "triton-failures"]));
    // Triton's failure reasons as recorded (pre-created at 0, or counting).
    const failures = detect.available ? detect.charts.find((x) => x.id === "triton-failures")! : null;
    expect(failures?.series.sort()).toEqual(["BACKEND", "CANCELED", "OTHER", "REJECTED"]);
  });

  it("every GPU chart of the node and of each GPU has data, under the node's host label", async () => {
    await expect
      .poll(
        async () => {
          const empty: string[] = [];
          for (const scope of [{ kind: "node" as const, hostname: NODE }, ...r().uuids.map((uuid) => ({ kind: "gpu" as const, uuid }))]) {
            const out = await gpuCharts({ prometheus: r().client() }, { scope, range: "15m" });
            if (!out.available) return [out.reason];
            empty.push(...emptyCharts(out.charts).map((t) => `${scope.kind === "node" ? scope.hostname : scope.uuid}: ${t}`));
          }
          return empty;
        },
        { timeout: 30_000, interval: 2000 },
      )
      .toEqual([]);
    const node = await gpuCharts({ prometheus: r().client() }, { scope: { kind: "node", hostname: NODE }, range: "15m" });
    expect(node.available && node.devices.map((d) => d.hostname)).toEqual(r().uuids.map(() => NODE));
    // dcgm-exporter printed the recorded page's host label, not Kule's spelling.
    const raw = await instant(r().prom, "DCGM_FI_DEV_POWER_USAGE");
    expect(raw.every((s) => s.metric[c.hostLabel] === NODE && hostnameOf(s.metric) === NODE)).toBe(true);
    if (c.mig) {
      // A MIG GPU: no whole-GPU series at all, yet its charts have a line per instance.
      const gpu0 = await gpuCharts({ prometheus: r().client() }, { scope: { kind: "gpu", uuid: r().uuids[0]! }, range: "15m" });
      expect(gpu0.available && gpu0.charts.find((x) => x.id === "util")!.series).toEqual(["MIG 3g.40gb #1", "MIG 2g.20gb #3", "MIG 1g.10gb #9"]);
    } else {
      expect(node.available && node.xidEvents.map((e) => e.xid)).toContain(31);
    }
  });

  it("every GPU has a fleet cell with utilization, memory, power and temperature", async () => {
    await expect
      .poll(async () => {
        const fleet = await gpuFleet({ prometheus: r().client() });
        if (!fleet.available) return [fleet.reason];
        return r().uuids.filter((u) => Object.values(fleet.gpus[u] ?? { missing: null }).some((v) => v === null));
      }, { timeout: 30_000, interval: 2000 })
      .toEqual([]);
    if (c.mig) {
      const fleet = await gpuFleet({ prometheus: r().client() });
      // GPU 0 of the MIG page: (3 × 87.45% + 2 × 61.21% + 1 × 0) / 7, memory summed over its instances.
      expect(fleet.available && fleet.gpus[r().uuids[0]!]).toMatchObject({ utilPct: 55, fbUsedMiB: 36412 + 17980 });
    }
  });

  it("every recording rule and alert expression returns data", async () => {
    const probes = ruleProbes();
    // Every rule of the files is probed (none skipped by the reading above).
    const rules = fs.readdirSync(RULES).filter((f) => f.endsWith(".yml") && !f.endsWith(".test.yml")).map((f) => fs.readFileSync(path.join(RULES, f), "utf8"));
    expect(probes).toHaveLength(rules.join("\n").match(/^\s+- (record|alert): /gm)!.length);
    expect(probes.map((p) => p.what)).toEqual(expect.arrayContaining(["alert KuleReplicaDown", "alert KuleKvCacheSaturated", "recording rule kule:gpu_utilization:ratio"]));
    await expect
      .poll(async () => {
        const missing: string[] = [];
        for (const p of probes) if ((await instant(r().prom, p.query)).length === 0) missing.push(p.what);
        return missing;
      }, { timeout: 30_000, interval: 2000 })
      .toEqual([]);
  });
});
