import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { SimCluster } from "./cluster.ts";
import { smallTopology, LLAMA_8B } from "./fixtures.ts";
import { countTokens } from "./tokens.ts";
import { tpotMs, ttftMs } from "./latency-model.ts";
import type { ReplicaSpec } from "../driver.ts";

let cluster: SimCluster;

const spec = (id: string, task: ReplicaSpec["task"], device: ReplicaSpec["device"], extra: Partial<ReplicaSpec> = {}): ReplicaSpec => ({
  id,
  endpointSlug: id,
  servedModelName: `${id}-model`,
  versionId: `v-${id}`,
  versionLabel: "1.0",
  task,
  ...LLAMA_8B,
  device,
  ...extra,
});

async function ready(s: ReplicaSpec) {
  await cluster.startReplica(s);
  return (await cluster.awaitReady(s.id, 10_000)).url!;
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(name));
  return line ? Number(line.split(" ").at(-1)) : NaN;
}

beforeAll(() => {
  cluster = new SimCluster(smallTopology(), { storageBandwidth: 1e12, latencyScale: 0.2 });
});
afterAll(() => cluster.shutdown());

describe("KServe v2 and embeddings on simulated replicas", () => {
  it("a vision replica answers KServe v2 health, metadata and infer, and counts in Triton's metrics", async () => {
    const url = await ready(spec("detect", "vision", { kind: "gpu", gpuUuid: "GPU-vis-1-0" }, { parameterCount: 68e6, weightBytes: 136e6 }));
    expect((await fetch(`${url}/v2/health/ready`)).status).toBe(200);
    const meta = (await (await fetch(`${url}/v2/models/detect`)).json()) as { name: string; versions: string[] };
    expect(meta).toMatchObject({ name: "detect", versions: ["1.0"] });
    const body = { inputs: [{ name: "INPUT0", datatype: "UINT8", shape: [1, 12], data: Array.from({ length: 12 }, (_, i) => i) }] };
    const res = await fetch(`${url}/v2/models/detect/infer`, { method: "POST", body: JSON.stringify(body) });
    const out = (await res.json()) as { outputs: { shape: number[]; data: number[] }[] };
    expect(res.status).toBe(200);
    expect(out.outputs[0]!.data).toHaveLength(out.outputs[0]!.shape[0]! * 6);
    const bad = await fetch(`${url}/v2/models/detect/infer`, { method: "POST", body: JSON.stringify({ inputs: [{ name: "INPUT0", datatype: "UINT8", shape: [2, 2], data: [1] }] }) });
    expect(bad.status).toBe(400);
    // Triton's metrics are on a port of their own, not on its HTTP API port.
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
    const metricsUrl = cluster.replica("detect").status().metricsUrl!;
    expect(new URL(metricsUrl).port).not.toBe(new URL(url).port);
    expect(await metric(metricsUrl.replace(/\/metrics$/, ""), 'nv_inference_request_success{model="detect-model"')).toBe(1);
    expect(await metric(metricsUrl.replace(/\/metrics$/, ""), 'nv_inference_request_failure{model="detect-model",version="1.0",reason="BACKEND"}')).toBe(0);
  });

  it("an embedding replica answers OpenAI embeddings with one vector per input and token usage", async () => {
    const url = await ready(spec("embed", "embedding", { kind: "cpu", hostname: "cpu-1" }, { parameterCount: 568e6, weightBytes: 2272e6 }));
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "x", maxRetries: 0 });
    const r = await client.embeddings.create({ model: "embed", input: ["Merhaba dünya", "KVKK uyumlu"] });
    expect(r.data).toHaveLength(2);
    expect(r.data[0]!.embedding).toHaveLength(1024);
    expect(r.usage.prompt_tokens).toBe(countTokens("Merhaba dünya") + countTokens("KVKK uyumlu"));
  });
});

describe("injected faults show in answers and metrics", () => {
  it("a version made to fail a share of requests fails about that share with 500s", async () => {
    const url = await ready(spec("flaky", "llm", { kind: "gpu", gpuUuid: "GPU-llm-1-0" }));
    cluster.setVersionErrorShare("v-flaky", 0.3);
    const statuses = await Promise.all(
      Array.from({ length: 200 }, () => fetch(`${url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model: "flaky", messages: [{ role: "user", content: "x" }], max_tokens: 1 }) }).then((r) => r.status)),
    );
    const failed = statuses.filter((s) => s === 500).length;
    expect(failed).toBeGreaterThan(30);
    expect(failed).toBeLessThan(90);
    expect(statuses.filter((s) => s !== 500 && s !== 200)).toEqual([]);
    // vLLM counts only successes: the counter shows what the failures took away.
    expect(await metric(url, 'vllm:request_success_total{model_name="flaky-model",engine="0",finished_reason="length"}')).toBe(200 - failed);
    cluster.setVersionErrorShare("v-flaky", 0);
  });

  it("a replica slowed by a factor answers that much later, visible in its TTFT histogram", async () => {
    const url = await ready(spec("slow", "llm", { kind: "gpu", gpuUuid: "GPU-llm-1-1" }));
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "x", maxRetries: 0 });
    const timed = async () => {
      const t0 = performance.now();
      await client.chat.completions.create({ model: "slow", messages: [{ role: "user", content: "time me" }], max_tokens: 4 });
      return performance.now() - t0;
    };
    await timed();
    cluster.slowReplica("slow", 10);
    const after = await timed();
    // The model's own floor for 4 tokens at 10 × this cluster's scale (prefill, then 3 decode
    // steps): timers never fire early, so a busy machine can only add to it, never take away.
    const unslowed = { ...cluster.replica("slow").engine.params, scale: 0.2 };
    const slowed = { ...unslowed, scale: 0.2 * 10 };
    const floor = ttftMs(slowed, 0, 0) + 3 * tpotMs(slowed, 1);
    expect(after).toBeGreaterThanOrEqual(floor);
    // …which is over 4 times the unslowed replica's whole answer, to the model.
    expect(floor).toBeGreaterThan(4 * (ttftMs(unslowed, 64, 1) + 3 * tpotMs(unslowed, 2)));
    const sum = await metric(url, 'vllm:time_to_first_token_seconds_sum{model_name="slow-model",engine="0"}');
    // The slowed answer's first token alone, in seconds: the histogram holds the engine's own clock.
    expect(sum).toBeGreaterThanOrEqual(ttftMs(slowed, 0, 0) / 1000);
  });
});
