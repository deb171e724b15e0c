/**
 * The simulator feeds Kule's pages in both of its exporter settings: with replicas under load,
 * a real Prometheus finding them through Kule's discovery, every engine panel of a vLLM and a
 * Triton endpoint, every GPU chart of a node with a whole and a MIG GPU, and their fleet cells
 * have data when it imitates the newest and the oldest supported exporters.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type http from "node:http";
import OpenAI from "openai";
import { SimCluster } from "./cluster.ts";
import { startControlServer } from "./control-server.ts";
import { LLAMA_8B, smallTopology } from "./fixtures.ts";
import { freePort } from "../../../scripts/lib/proc.ts";
import { startPrometheus, type RunningPrometheus } from "../../../scripts/lib/prometheus.ts";
import { serveSimReplicaDiscovery } from "../../test/sim-discovery.ts";
import { chartsOf } from "../../metrics/endpoint-charts.ts";
import { panelsFor } from "../../metrics/endpoint-panels.ts";
import { gpuCharts } from "../../metrics/gpu-charts.ts";
import { gpuFleet } from "../../metrics/gpu-fleet.ts";
import { PrometheusClient } from "../../metrics/prometheus-client.ts";
import { EXPORTER_PROFILES } from "../../metrics/exporters/versions.ts";

const emptyOf = (charts: { id: string; rows: Record<string, number | null>[]; series: string[] }[]) => charts.filter((c) => !c.rows.some((r) => c.series.some((s) => r[s] != null))).map((c) => c.id);

describe.each(["newest", "oldest"] as const)("Kule's pages fed by the simulator imitating the %s exporters", (profile) => {
  let cluster: SimCluster;
  let control: http.Server;
  let prom: RunningPrometheus;
  let sd: Awaited<ReturnType<typeof serveSimReplicaDiscovery>>;
  let busy = true;
  let load: Promise<unknown>;

  beforeAll(async () => {
    cluster = new SimCluster(smallTopology(), { storageBandwidth: 1e12, latencyScale: 0.3, exporters: EXPORTER_PROFILES[profile] });
    control = (await startControlServer(cluster, 0)).server;
    const controlUrl = `http://127.0.0.1:${(control.address() as { port: number }).port}`;
    sd = await serveSimReplicaDiscovery(cluster);
    const running = await startPrometheus({
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-prom-sim-")),
      port: await freePort(),
      sdTargets: [{ job: "kule-sim", url: `${controlUrl}/sd` }, { job: "kule-replicas", url: sd.url }],
      scrapeIntervalSeconds: 1,
    });
    if (!running) throw new Error("No prometheus binary: apt-get install -y prometheus");
    prom = running;
    const base = { versionLabel: "1.0", ...LLAMA_8B };
    await cluster.startReplica({ ...base, id: "chat-a", endpointSlug: "chat", servedModelName: "llama", versionId: "v1", task: "llm", device: { kind: "gpu", gpuUuid: "GPU-llm-1-0" } });
    await cluster.startReplica({ ...base, id: "chat-mig", endpointSlug: "chat", servedModelName: "llama", versionId: "v1", task: "llm", device: { kind: "mig", gpuUuid: "GPU-llm-2-0", startSlot: 0 } });
    await cluster.startReplica({ ...base, id: "detect-a", endpointSlug: "detect", servedModelName: "yolo", versionId: "v2", task: "vision", parameterCount: 68e6, weightBytes: 136e6, device: { kind: "gpu", gpuUuid: "GPU-vis-1-0" } });
    await Promise.all(["chat-a", "chat-mig", "detect-a"].map((id) => cluster.awaitReady(id, 10_000)));
    const chat = ["chat-a", "chat-mig"].map((id) => new OpenAI({ baseURL: `${cluster.replica(id).url}/v1`, apiKey: "x", maxRetries: 0 }));
    const detect = `${cluster.replica("detect-a").url}/v2/models/detect/infer`;
    const infer = { inputs: [{ name: "INPUT0", datatype: "UINT8", shape: [1, 64], data: Array.from({ length: 64 }, (_, i) => i) }] };
    const loop = async (i: number) => {
      while (busy) {
        await chat[i % 2]!.chat.completions.create({ model: "chat", messages: [{ role: "user", content: `Describe MIG profile number ${i % 3} in detail, please.` }], max_tokens: 40 }).catch(() => null);
        await fetch(detect, { method: "POST", body: JSON.stringify(infer) }).catch(() => null);
      }
    };
    load = Promise.all(Array.from({ length: 6 }, (_, i) => loop(i)));
  }, 60_000);

  afterAll(async () => {
    busy = false;
    await load;
    await prom?.stop();
    await cluster.shutdown();
    await new Promise((r) => control.close(r));
    await sd?.close();
  });

  const client = () => new PrometheusClient(prom.url);

  it("every engine panel of the vLLM and the Triton endpoint has data", async () => {
    await expect
      .poll(
        async () => {
          const empty: string[] = [];
          for (const metrics of ["vllm", "triton"] as const) {
            const slug = metrics === "vllm" ? "chat" : "detect";
            const out = await chartsOf(client(), { slug, metrics }, { range: "15m" });
            if (!out.available) return [out.reason];
            // The gateway's panels need Kule's gateway, which this test does not run.
            const engineOnly = new Set(panelsFor(metrics).filter((p) => p.engine).map((p) => p.id));
            empty.push(...emptyOf(out.charts.filter((c) => engineOnly.has(c.id))).map((id) => `${slug}: ${id}`));
          }
          return empty;
        },
        { timeout: 50_000, interval: 2000 },
      )
      .toEqual([]);
  }, 60_000);

  it("every GPU chart of a node with a whole and a MIG GPU has data, and every GPU a fleet cell", async () => {
    await expect
      .poll(
        async () => {
          const empty: string[] = [];
          for (const scope of [{ kind: "node" as const, hostname: "llm-1" }, { kind: "node" as const, hostname: "llm-2" }, { kind: "gpu" as const, uuid: "GPU-llm-2-0" }]) {
            const out = await gpuCharts({ prometheus: client() }, { scope, range: "15m" });
            if (!out.available) return [out.reason];
            empty.push(...emptyOf(out.charts).map((id) => `${JSON.stringify(scope)}: ${id}`));
          }
          const fleet = await gpuFleet({ prometheus: client() });
          if (!fleet.available) return [fleet.reason];
          for (const uuid of ["GPU-llm-1-0", "GPU-llm-2-0", "GPU-vis-1-0"]) if (Object.values(fleet.gpus[uuid] ?? { none: null }).some((v) => v === null)) empty.push(`fleet ${uuid}`);
          return empty;
        },
        { timeout: 40_000, interval: 2000 },
      )
      .toEqual([]);
    const fleet = await gpuFleet({ prometheus: client() });
    // The MIG GPU is busy through its 3g instance alone: at most 3/7 of it.
    expect(fleet.available && fleet.gpus["GPU-llm-2-0"]!.utilPct).toBeGreaterThan(0);
    expect(fleet.available && fleet.gpus["GPU-llm-2-0"]!.utilPct).toBeLessThanOrEqual(43);
  }, 60_000);
});
