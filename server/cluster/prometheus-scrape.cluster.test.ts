import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type http from "node:http";
import OpenAI from "openai";
import { SimCluster } from "./sim/cluster.ts";
import { startControlServer } from "./sim/control-server.ts";
import { smallTopology, LLAMA_8B } from "./sim/fixtures.ts";
import { freePort } from "../../scripts/lib/proc.ts";
import { gpuFleet } from "../metrics/gpu-fleet.ts";
import { gpuEnergyKwh } from "../finops/overheads.ts";
import { PrometheusClient } from "../metrics/prometheus-client.ts";
import { startPrometheus, type RunningPrometheus } from "../../scripts/lib/prometheus.ts";
import { serveSimReplicaDiscovery } from "../test/sim-discovery.ts";

let cluster: SimCluster;
let control: http.Server;
let prom: RunningPrometheus;
let replicaSd: Awaited<ReturnType<typeof serveSimReplicaDiscovery>>;


async function query(q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const res = await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent(q)}`);
  const body = (await res.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  expect(body.status).toBe("success");
  return body.data.result;
}

async function activeReplicaTargets(): Promise<string[]> {
  const body = (await (await fetch(`${prom.url}/api/v1/targets?state=active`)).json()) as { data: { activeTargets: { labels: Record<string, string> }[] } };
  return body.data.activeTargets.map((t) => t.labels.kule_replica).filter((x): x is string => !!x);
}

const replica = (id: string, gpuUuid: string) => ({
  id,
  endpointSlug: "chat",
  servedModelName: "llama-3.1-8b-instruct",
  versionId: `v-${id}`,
  versionLabel: "1.0",
  task: "llm" as const,
  ...LLAMA_8B,
  device: { kind: "gpu" as const, gpuUuid },
});

beforeAll(async () => {
  cluster = new SimCluster(smallTopology(), { storageBandwidth: 50e9, latencyScale: 1 });
  const started = await startControlServer(cluster, 0);
  control = started.server;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kule-prom-"));
  replicaSd = await serveSimReplicaDiscovery(cluster);
  const running = await startPrometheus({
    dataDir,
    port: await freePort(),
    // The simulator's hardware, and the replicas as Kule's discovery publishes them.
    sdTargets: [
      { job: "kule-sim", url: `${started.url}/sd` },
      { job: "kule-replicas", url: replicaSd.url },
    ],
    scrapeIntervalSeconds: 1,
  });
  if (!running) throw new Error("No prometheus binary: apt-get install -y prometheus");
  prom = running;
  await cluster.startReplica(replica("r1", "GPU-llm-1-0"));
  await cluster.startReplica(replica("r2", "GPU-llm-1-1"));
  await Promise.all([cluster.awaitReady("r1", 10_000), cluster.awaitReady("r2", 10_000)]);
});

afterAll(async () => {
  await prom?.stop();
  await cluster.shutdown();
  await new Promise((r) => control.close(r));
  await replicaSd?.close();
});

describe("a real Prometheus scraping the simulator through http_sd", () => {
  it("returns DCGM series for the nodes and vLLM series for the replicas that run, as load flows", async () => {
    const client = new OpenAI({ baseURL: `${cluster.replica("r1").url}/v1`, apiKey: "x", maxRetries: 0 });
    // Keep r1 busy (24 callers in a loop) while Prometheus scrapes: its GPU's utilization and framebuffer must show it.
    let busy = true;
    const caller = async () => {
      while (busy) await client.chat.completions.create({ model: "chat", messages: [{ role: "user", content: "Explain MIG in detail." }], max_tokens: 200 });
    };
    const load = Promise.all(Array.from({ length: 24 }, caller));
    try {
      await expect
        .poll(async () => Number((await query('DCGM_FI_DEV_GPU_UTIL{hostname="llm-1",gpu="0"}'))[0]?.value[1] ?? 0), { timeout: 15_000, interval: 500 })
        .toBeGreaterThan(40);
      // The fleet view the cluster page draws reads the same series.
      const fleet = await gpuFleet({ prometheus: new PrometheusClient(prom.url) });
      expect(fleet.available && fleet.gpus["GPU-llm-1-0"]!.utilPct).toBeGreaterThan(40);
      expect(fleet.available && fleet.gpus["GPU-llm-1-0"]!.fbUsedMiB).toBeGreaterThan(LLAMA_8B.weightBytes / 2 ** 20);
      const idle = await query('DCGM_FI_DEV_GPU_UTIL{hostname="llm-1",gpu="1"}');
      expect(Number(idle[0]!.value[1])).toBe(0);
      const fb = await query('DCGM_FI_DEV_FB_USED{hostname="llm-1",gpu="0"}');
      expect(Number(fb[0]!.value[1])).toBeGreaterThan(LLAMA_8B.weightBytes / 2 ** 20);
      expect((await query('DCGM_FI_DEV_GR_ENGINE_ACTIVE_DOES_NOT_EXIST')).length).toBe(0);
      // MIG instances are reported with their profile and NVML's instance id (a 3g at slot 0 is 2),
      // and a MIG-enabled GPU has no whole-GPU series, as dcgm-exporter's default mode prints it.
      await expect
        .poll(async () => (await query('DCGM_FI_PROF_GR_ENGINE_ACTIVE{hostname="llm-2",GPU_I_PROFILE="3g.40gb"}'))[0]?.metric.GPU_I_ID, { timeout: 10_000, interval: 500 })
        .toBe("2");
      expect(await query('DCGM_FI_DEV_POWER_USAGE{hostname="llm-2",GPU_I_ID=""}')).toEqual([]);
      expect(await query('DCGM_FI_DEV_GPU_UTIL{hostname="llm-2"}')).toEqual([]);
    } finally {
      busy = false;
      await load;
    }
    await expect
      .poll(async () => (await query('vllm:generation_tokens_total{kule_replica="r1"}')).map((r) => Number(r.value[1]))[0] ?? 0, { timeout: 10_000, interval: 500 })
      .toBeGreaterThan(100);
    const ttft = await query('vllm:time_to_first_token_seconds_count{kule_replica="r1"}');
    expect(ttft[0]!.metric).toMatchObject({ kule_engine: "vllm", kule_endpoint: "chat", kule_max_num_seqs: "32", model_name: "llama-3.1-8b-instruct", engine: "0" });
  });

  it("gives the hourly cost each GPU's energy from its own counter, once per GPU where MIG instances repeat it", async () => {
    // A counter's increase needs two scrapes of it in the window.
    const gpus = smallTopology().pools.flatMap((p) => p.nodes.flatMap((n) => n.gpus.map((g) => g.uuid)));
    const read = () => gpuEnergyKwh(new PrometheusClient(prom.url), Date.now() - 60_000, Date.now());
    await expect.poll(async () => [...((await read())?.keys() ?? [])].sort(), { timeout: 20_000, interval: 500 }).toEqual(gpus.sort());
    const kwh = (await read())!;
    // mJ read as kWh: a minute of an H100 at its 700 W ceiling is 0.0117 kWh, and idle it still draws.
    for (const v of kwh.values()) expect(v.toNumber()).toBeGreaterThan(0);
    for (const v of kwh.values()) expect(v.toNumber()).toBeLessThan((700 * 60 * 1.1) / 3.6e6);
    expect(await gpuEnergyKwh(new PrometheusClient(null), Date.now() - 60_000, Date.now())).toBeNull();
  });

  it("drops a stopped replica's target", async () => {
    await expect.poll(activeReplicaTargets, { timeout: 10_000, interval: 500 }).toEqual(expect.arrayContaining(["r1", "r2"]));
    await cluster.stopReplica("r2");
    await expect.poll(activeReplicaTargets, { timeout: 10_000, interval: 500 }).not.toContain("r2");
  });

  it("shows an injected XID error on the GPU, and the replica on it failing", async () => {
    await cluster.gpuXid("GPU-llm-1-0", 79);
    await expect.poll(async () => (await query('DCGM_FI_DEV_XID_ERRORS{hostname="llm-1",gpu="0"}'))[0]?.value[1], { timeout: 10_000, interval: 500 }).toBe("79");
    expect(cluster.replica("r1").status()).toMatchObject({ state: "failed", reason: expect.stringContaining("XID 79") });
  });

  it("a node taken down stops answering its exporter scrape", async () => {
    await cluster.setNodeStatus("vis-1", "down");
    await expect.poll(async () => (await query('up{job="dcgm",kule_node="vis-1"}'))[0]?.value[1], { timeout: 10_000, interval: 500 }).toBe("0");
  });
});
