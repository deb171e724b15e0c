/**
 * The simulator speaks like the real exporters, version by version: its vLLM, Triton and
 * dcgm-exporter pages have the families, types, HELP texts, labels and buckets of the recorded
 * pages of the release it imitates (server/metrics/exporters/fixtures/).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import OpenAI from "openai";
import { SimCluster } from "./cluster.ts";
import { LLAMA_8B, smallTopology } from "./fixtures.ts";
import { families, type Family } from "../../test/exposition-families.ts";
import { EXPORTER_PROFILES, type ExporterProfile } from "../../metrics/exporters/versions.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../../metrics/exporters/fixtures");
const recorded = (file: string) => families(fs.readFileSync(path.join(FIXTURES, file), "utf8"));

const PAGES: Record<ExporterProfile, { vllm: string; dcgmWhole: string; dcgmMig: string; hostLabel: string }> = {
  newest: { vllm: "vllm-v1-0.30.0.prom", dcgmWhole: "dcgm-exporter-4.6.0-4.8.3-hostname-whole-gpus.prom", dcgmMig: "dcgm-exporter-4.6.0-4.8.3-hostname-mig.prom", hostLabel: "hostname" },
  oldest: { vllm: "vllm-v0-0.10.prom", dcgmWhole: "dcgm-exporter-4.5.3-4.8.2-whole-gpus.prom", dcgmMig: "dcgm-exporter-4.5.3-4.8.2-mig.prom", hostLabel: "Hostname" },
};
/** Families the 0.30.0 recording leaves out for length (named in its header), which vLLM 0.30 has. */
const LEFT_OUT_OF_RECORDING = ["vllm:request_max_num_generation_tokens", "vllm:request_params_n", "vllm:request_params_max_tokens"];
/** Labels of a deployment the simulator has no part of: dcgm-exporter's pod mapping, Triton's per-GPU split. */
const DEPLOYMENT_LABELS = ["container", "namespace", "pod", "pod_uid", "gpu_uuid"];

/** A page's families as comparable values; bucket bounds as numbers (Python prints `1.0`, prom-client `1`). */
function shape(fams: Map<string, Family>, ignoreLabels: string[] = []) {
  return Object.fromEntries([...fams].map(([name, f]) => [name, { type: f.type, help: f.help, labels: [...f.labels].filter((l) => !ignoreLabels.includes(l)).sort(), buckets: f.buckets.map((b) => (b === "+Inf" ? Infinity : Number(b))) }]));
}

describe.each(["newest", "oldest"] as const)("the simulator imitating the %s supported exporters", (profile) => {
  let cluster: SimCluster;
  const pages = PAGES[profile];
  beforeAll(async () => {
    cluster = new SimCluster(smallTopology(), { storageBandwidth: 1e12, latencyScale: 0.05, exporters: EXPORTER_PROFILES[profile] });
    const base = { versionLabel: "1.0", ...LLAMA_8B };
    await cluster.startReplica({ ...base, id: "chat", endpointSlug: "chat", servedModelName: "llama", versionId: "v1", task: "llm", device: { kind: "gpu", gpuUuid: "GPU-llm-1-0" } });
    await cluster.startReplica({ ...base, id: "mig", endpointSlug: "mig", servedModelName: "llama", versionId: "v2", task: "llm", device: { kind: "mig", gpuUuid: "GPU-llm-2-0", startSlot: 0 } });
    await cluster.startReplica({ ...base, id: "detect", endpointSlug: "detect", servedModelName: "yolo", versionId: "v3", task: "vision", parameterCount: 68e6, weightBytes: 136e6, device: { kind: "gpu", gpuUuid: "GPU-vis-1-0" } });
    await Promise.all(["chat", "mig", "detect"].map((id) => cluster.awaitReady(id, 10_000)));
    const client = new OpenAI({ baseURL: `${cluster.replica("chat").url}/v1`, apiKey: "x", maxRetries: 0 });
    // The same long prompt twice: the second reuses the first one's blocks from the prefix cache.
    const content = "Explain how a GPU splits into MIG instances and what each profile can hold. ".repeat(4);
    for (let i = 0; i < 2; i++) await client.chat.completions.create({ model: "chat", messages: [{ role: "user", content }], max_tokens: 12 });
  });
  afterAll(() => cluster.shutdown());

  const page = async (url: string) => families(await (await fetch(url)).text());

  it(`vLLM's page has ${pages.vllm}'s families, HELP texts, labels and buckets`, async () => {
    const sim = shape(await page(cluster.replica("chat").metricsUrl!));
    const real = shape(recorded(pages.vllm));
    if (profile === "newest") for (const name of LEFT_OUT_OF_RECORDING) delete sim[name];
    // cache_config_info's keys follow CacheConfig, which changes between releases: the simulator prints some.
    expect(sim["vllm:cache_config_info"]!.labels).toEqual(expect.arrayContaining(["engine", "block_size", "num_gpu_blocks"]));
    delete sim["vllm:cache_config_info"];
    delete real["vllm:cache_config_info"];
    expect(sim).toEqual(real);
  });

  it("vLLM's counters move: prefix-cache hits, every inter-token interval, no abort counted as finished", async () => {
    const f = await page(cluster.replica("chat").metricsUrl!);
    const value = (name: string, where: Record<string, string> = {}) => f.get(name)?.samples.find((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v))?.value;
    expect(value("vllm:prefix_cache_hits_total")).toBeGreaterThanOrEqual(16);
    expect(value("vllm:request_success_total", { finished_reason: "length" })).toBe(2);
    expect(value("vllm:request_success_total", { finished_reason: "abort" })).toBe(0);
    // One observation per interval between tokens (12 tokens: 11 intervals a request), not one per request.
    expect(f.get("vllm:inter_token_latency_seconds")!.samples.find((s) => s.name.endsWith("_count"))!.value).toBe(22);
    if (profile === "oldest") expect(value("vllm:gpu_prefix_cache_hits_total")).toBe(value("vllm:prefix_cache_hits_total"));
  });

  it("Triton's page on its own metrics port has triton-2.68.0's families, failure reasons and pending gauge", async () => {
    const url = cluster.replica("detect").metricsUrl!;
    expect(new URL(url).port).not.toBe(new URL(cluster.replica("detect").url!).port);
    const f = await page(url);
    expect(shape(f, DEPLOYMENT_LABELS)).toEqual(shape(recorded("triton-2.68.0.prom"), DEPLOYMENT_LABELS));
    expect(f.get("nv_inference_request_failure")!.samples.map((s) => s.labels.reason).sort()).toEqual(["BACKEND", "CANCELED", "OTHER", "REJECTED"]);
  });

  it(`dcgm-exporter's page has ${pages.dcgmWhole}'s and ${pages.dcgmMig}'s families, labels and MIG layout`, async () => {
    const sim = families(cluster.dcgmText("llm-1")!);
    expect(shape(sim, DEPLOYMENT_LABELS)).toEqual(shape(recorded(pages.dcgmWhole), DEPLOYMENT_LABELS));
    expect(sim.get("DCGM_FI_DEV_POWER_USAGE")!.samples.every((s) => s.labels[pages.hostLabel] === "llm-1")).toBe(true);
    // A MIG GPU (llm-2 has only one): instance series only, device values repeated on each, no
    // GPU_UTIL on instances, as the recorded MIG GPU's series (the recorded node also has a whole GPU).
    const mig = families(cluster.dcgmText("llm-2")!);
    const recordedInstances = families(
      fs
        .readFileSync(path.join(FIXTURES, pages.dcgmMig), "utf8")
        .split("\n")
        .filter((l) => l.startsWith("#") || l.includes("GPU_I_ID="))
        .join("\n"),
    );
    for (const [name, f] of recordedInstances) if (!f.samples.length) recordedInstances.delete(name);
    expect(shape(mig, DEPLOYMENT_LABELS)).toEqual(shape(recordedInstances, DEPLOYMENT_LABELS));
    const power = mig.get("DCGM_FI_DEV_POWER_USAGE")!.samples;
    expect(power.map((s) => [s.labels.GPU_I_PROFILE, s.labels.GPU_I_ID])).toEqual([["3g.40gb", "2"], ["1g.10gb", "11"]]);
    expect(new Set(power.map((s) => s.value)).size).toBe(1);
    expect(mig.get("DCGM_FI_DEV_GPU_UTIL")).toBeUndefined();
    const xid = mig.get("DCGM_FI_DEV_XID_ERRORS")!.samples[0]!;
    expect(xid.labels).toMatchObject({ err_code: "0", err_msg: "No Error" });
  });
});
