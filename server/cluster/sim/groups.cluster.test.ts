import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { SimCluster } from "./cluster.ts";
import { referenceCluster } from "./reference-cluster.ts";
import { gpuUuid } from "../gpu-uuid.ts";
import { tpotMs } from "./latency-model.ts";
import type { Device, ReplicaSpec } from "../driver.ts";

let cluster: SimCluster;
const GiB = 2 ** 30;
const SCALE = 0.2;

// Llama 3.1 70B in bf16 with its card; a 405B-class model in FP8.
const llama70b = { parameterCount: 70.6e9, weightBytes: 141.2e9, attention: { layers: 80, kvHeads: 8, headDim: 128 } };
const llama405b = { parameterCount: 405e9, weightBytes: 405e9, attention: { layers: 126, kvHeads: 8, headDim: 128 } };

const gpus = (host: string, indices: number[]) => indices.map((i) => gpuUuid(host, i));
const group = (uuids: string[], tensorParallel: number, pipelineParallel = 1): Device => ({ kind: "group", gpuUuids: uuids, tensorParallel, pipelineParallel });
const spec = (id: string, device: Device, model = llama70b): ReplicaSpec => ({ id, endpointSlug: id, servedModelName: `${id}-model`, versionId: `v-${id}`, versionLabel: "1.0", task: "llm", ...model, device });

async function ready(s: ReplicaSpec) {
  await cluster.startReplica(s);
  return (await cluster.awaitReady(s.id, 20_000)).url!;
}

beforeAll(() => {
  cluster = new SimCluster(referenceCluster(), { storageBandwidth: 1e12, latencyScale: SCALE });
});
afterAll(() => cluster.shutdown());

describe("group replicas on the simulator", () => {
  it("splits a TP 4 engine's weights over its four GPUs, and answers through the OpenAI API at the group's step time", async () => {
    const members = gpus("gpu-llm-01", [0, 1, 2, 3]);
    const url = await ready(spec("tp4", group(members, 4)));
    // dcgm's framebuffer per GPU: a quarter of the weights each (plus the engine's CUDA context), not the whole 141 GB.
    for (const u of members) expect(cluster.readings.usedBytes(u) / GiB).toBeCloseTo(141.2e9 / 4 / GiB + 0.5, 0);
    expect(cluster.readings.usedBytes(gpuUuid("gpu-llm-01", 4))).toBe(0);

    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "sim" });
    const stream = await client.chat.completions.create({ model: "tp4", messages: [{ role: "user", content: "Tell me a story" }], max_tokens: 96, stream: true });
    const times: number[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta?.content) times.push(Date.now());
    expect(times.length).toBeGreaterThan(80);
    // Tokens are due on the engine's clock, so a late first delivery on a loaded host bunches the
    // next few up: over ~90 steps that costs a few percent, not the 20% a dozen tokens could.
    const itl = (times.at(-1)! - times[0]!) / (times.length - 1);
    // The group's step (engine-physics.ts: a quarter of 141 GB per GPU a step, 160 all-reduces over NVSwitch), at this cluster's scale.
    const params = cluster.replica("tp4").engine.params;
    expect(params.tpotBaseMs).toBeGreaterThan(14);
    expect(params.tpotBaseMs).toBeLessThan(17);
    const expected = tpotMs(params, 1);
    expect(itl).toBeGreaterThan(expected * 0.8);
    expect(itl).toBeLessThan(expected * 1.6);
    await cluster.stopReplica("tp4");
  });

  it("runs a pipeline over two nodes, and fails it whole when one of its nodes goes down", async () => {
    const members = [...gpus("gpu-llm-02", [0, 1, 2, 3, 4, 5, 6, 7]), ...gpus("gpu-llm-03", [0, 1, 2, 3, 4, 5, 6, 7])];
    await ready(spec("pp2", group(members, 8, 2), llama405b));
    // Each of the 16 GPUs holds 1/16 of 405 GB.
    expect(cluster.readings.usedBytes(gpuUuid("gpu-llm-03", 7)) / GiB).toBeCloseTo(405e9 / 16 / GiB + 0.5, 0);
    await cluster.setNodeStatus("gpu-llm-03", "down");
    expect(cluster.replica("pp2").state).toBe("failed");
    expect(cluster.replica("pp2").reason).toBe("Node gpu-llm-03 is down.");
    await cluster.setNodeStatus("gpu-llm-03", "ready");
    await cluster.stopReplica("pp2");
  });

  it("a GPU a group holds is taken: a second engine there runs out of memory, and it cannot be re-partitioned", async () => {
    const members = gpus("gpu-llm-01", [4, 5, 6, 7]);
    await ready(spec("held", group(members, 4)));
    await cluster.startReplica({ ...spec("squatter", { kind: "gpu", gpuUuid: members[2]! }), parameterCount: 8e9, weightBytes: 16e9 });
    await expect(cluster.awaitReady("squatter", 10_000)).rejects.toThrow(/CUDA out of memory/);
    await expect(cluster.applyMigLayout(members[1]!, [{ profile: "7g.80gb", startSlot: 0 }])).rejects.toThrow(/runs 1 replica\(s\)/);
    // One GPU's XID: the whole group's engine dies.
    await cluster.gpuXid(members[3]!, 79);
    expect(cluster.replica("held").state).toBe("failed");
    expect(cluster.replica("held").reason).toMatch(/^NCCL error: .*GPU 7 of gpu-llm-01 reported XID 79\); the whole group stopped\.$/);
    cluster.clearFaults();
  });

  it("refuses a group with a MIG GPU in it, or GPUs that do not make the split", async () => {
    // gpu-llm-04's GPUs 6 and 7 are partitioned in the reference cluster.
    await expect(cluster.startReplica(spec("mig", group(gpus("gpu-llm-04", [4, 5, 6, 7]), 4)))).rejects.toThrow(/MIG mode: NCCL cannot join a MIG instance/);
    await expect(cluster.startReplica(spec("odd", group(gpus("gpu-llm-04", [0, 1, 2]), 4)))).rejects.toThrow(/do not make TP 4 × PP 1/);
  });
});
