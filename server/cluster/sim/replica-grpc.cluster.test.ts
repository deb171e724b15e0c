import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { status } from "@grpc/grpc-js";
import { SimCluster } from "./cluster.ts";
import { smallTopology, LLAMA_8B } from "./fixtures.ts";
import { inferenceClient } from "../../test/grpc-client.ts";
import type { ReplicaSpec } from "../driver.ts";

let cluster: SimCluster;
const clients: ReturnType<typeof inferenceClient>[] = [];

const spec = (id: string, task: ReplicaSpec["task"], device: ReplicaSpec["device"], extra: Partial<ReplicaSpec>): ReplicaSpec => ({ id, endpointSlug: id, servedModelName: `${id}-model`, versionId: `v-${id}`, versionLabel: "1.0", task, ...LLAMA_8B, device, ...extra });

/** A ready replica's HTTP URL and a gRPC client of its KServe v2 service. */
async function replica(s: ReplicaSpec) {
  await cluster.startReplica(s);
  const url = (await cluster.awaitReady(s.id, 10_000)).url!;
  const client = inferenceClient(cluster.replica(s.id).grpcTarget!);
  clients.push(client);
  return { url, client };
}

beforeAll(() => {
  cluster = new SimCluster(smallTopology(), { storageBandwidth: 1e12, latencyScale: 0.2 });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await cluster.shutdown();
});

interface Answer {
  outputs: { name: string; datatype: string; shape: number[]; contents: { fp32_contents: number[] } }[];
}

describe("the simulator's Triton replicas answer KServe v2 over gRPC, as Triton does", () => {
  it("a vision replica: readiness, metadata, and the same detections as over HTTP", async () => {
    const { url, client } = await replica(spec("detect", "vision", { kind: "gpu", gpuUuid: "GPU-vis-1-0" }, { parameterCount: 68e6, weightBytes: 136e6 }));
    expect((await client.call("ServerReady", {})).value).toEqual({ ready: true });
    expect((await client.call("ModelReady", { name: "detect" })).value).toEqual({ ready: true });
    expect((await client.call("ModelMetadata", { name: "detect" })).value).toMatchObject({ name: "detect", versions: ["1.0"], platform: "onnxruntime_onnx", inputs: [{ name: "INPUT0", datatype: "UINT8" }] });

    const data = Array.from({ length: 12 }, (_, i) => i);
    const rest = (await (await fetch(`${url}/v2/models/detect/infer`, { method: "POST", body: JSON.stringify({ inputs: [{ name: "INPUT0", datatype: "UINT8", shape: [1, 12], data }] }) })).json()) as { outputs: { shape: number[]; data: number[] }[] };
    const res = await client.call<Answer>("ModelInfer", { model_name: "detect", inputs: [{ name: "INPUT0", datatype: "UINT8", shape: [1, 12], contents: { uint_contents: data } }] });
    expect(res.error).toBeNull();
    expect(res.value!.outputs[0]).toMatchObject({ name: "OUTPUT0", datatype: "FP32", shape: rest.outputs[0]!.shape, contents: { fp32_contents: rest.outputs[0]!.data.map(Math.fround) } });
    // Class ids are never negative.
    expect(res.value!.outputs[0]!.contents.fp32_contents.filter((_, i) => i % 6 === 0).every((c) => c >= 0 && c < 80)).toBe(true);
  });

  it("refuses a bad tensor with INVALID_ARGUMENT and an unknown model with NOT_FOUND", async () => {
    const client = inferenceClient(cluster.replica("detect").grpcTarget!);
    clients.push(client);
    const bad = await client.call("ModelInfer", { model_name: "detect", inputs: [{ name: "INPUT0", datatype: "UINT8", shape: [2, 2], contents: { uint_contents: [1] } }] });
    expect(bad.error?.code).toBe(status.INVALID_ARGUMENT);
    expect(bad.error?.details).toMatch(/has 1 elements but its shape \[2,2\] needs 4/);
    expect((await client.call("ModelInfer", { model_name: "nope", inputs: [] })).error?.code).toBe(status.NOT_FOUND);
  });

  it("an embedding replica answers ModelInfer on BYTES input", async () => {
    const { client } = await replica(spec("embed", "embedding", { kind: "cpu", hostname: "cpu-1" }, { parameterCount: 568e6, weightBytes: 2272e6 }));
    const res = await client.call<Answer>("ModelInfer", { model_name: "embed", inputs: [{ name: "INPUT0", datatype: "BYTES", shape: [1, 1], contents: { bytes_contents: [Buffer.from("Merhaba dünya")] } }] });
    expect(res.error).toBeNull();
    expect(res.value!.outputs[0]!.contents.fp32_contents.length).toBe(res.value!.outputs[0]!.shape.reduce((a, b) => a * b, 1));
  });

  it("an LLM replica (vLLM) serves no gRPC", async () => {
    await cluster.startReplica(spec("chat", "llm", { kind: "gpu", gpuUuid: "GPU-llm-1-0" }, {}));
    await cluster.awaitReady("chat", 10_000);
    expect(cluster.replica("chat").grpcTarget).toBeNull();
  });
});
