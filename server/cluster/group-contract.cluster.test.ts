import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type http from "node:http";
import OpenAI from "openai";
import { SimCluster } from "./sim/cluster.ts";
import { startControlServer } from "./sim/control-server.ts";
import { referenceCluster } from "./sim/reference-cluster.ts";
import { SimDriver } from "./sim-driver.ts";
import type { ClusterDriver, Device, ReplicaSpec } from "./driver.ts";
import { KubernetesDriver } from "./kubernetes/kubernetes-driver.ts";
import { startSimulatedKubernetes } from "./kubernetes/sim-bridge/simulated-kubernetes.ts";
import { defaultKubernetesSettings } from "./kubernetes/default-settings.ts";
import { gpuUuid } from "./gpu-uuid.ts";
import type { StandIn } from "./kubernetes/stand-in/index.ts";
import type { KubeObject } from "./kubernetes/stand-in/kube-object.ts";
import { schemaErrors } from "./kubernetes/stand-in/schema-validation.ts";

/**
 * The driver contract for group replicas: a tensor-parallel group on one node and a pipeline over
 * two nodes, on the simulator's own driver and on the Kubernetes driver (one pod asking for N
 * GPUs; a LeaderWorkerSet of one pod per stage), all backed by one simulated reference cluster.
 */
let cluster: SimCluster;
let control: http.Server;
let standIn: StandIn;
let sim: SimDriver;
let kubernetes: KubernetesDriver;
let kserve: KubernetesDriver;

const llama70b = { parameterCount: 70.6e9, weightBytes: 141.2e9, attention: { layers: 80, kvHeads: 8, headDim: 128 } };
const gpus = (host: string, indices: number[]) => indices.map((i) => gpuUuid(host, i));
const tp2: Device = { kind: "group", gpuUuids: gpus("gpu-llm-02", [0, 1]), tensorParallel: 2, pipelineParallel: 1 };
const pp2: Device = { kind: "group", gpuUuids: [...gpus("gpu-llm-02", [4, 5]), ...gpus("gpu-llm-03", [4, 5])], tensorParallel: 2, pipelineParallel: 2 };
const spec = (id: string, device: Device): ReplicaSpec => ({ id, endpointSlug: "chat-large", servedModelName: "llama-3.1-70b-instruct", versionId: `v-${id}`, versionLabel: "1.0", task: "llm", engine: "vllm", pool: "llm-h100", ...llama70b, device });

beforeAll(async () => {
  cluster = new SimCluster(referenceCluster(), { storageBandwidth: 1e12, latencyScale: 0.1 });
  const started = await startControlServer(cluster, 0);
  control = started.server;
  sim = new SimDriver(started.url);
  standIn = await startSimulatedKubernetes(cluster, { migDelayMs: 50, msPerBackoffSecond: 50 });
  kubernetes = new KubernetesDriver(standIn.kubeConfig(), defaultKubernetesSettings());
  kserve = new KubernetesDriver(standIn.kubeConfig(), defaultKubernetesSettings({ workload: "inferenceservice" }));
  await Promise.all([kubernetes.ready(), kserve.ready()]);
});
afterAll(async () => {
  kubernetes.close();
  kserve.close();
  await standIn.stop();
  await cluster.shutdown();
  await new Promise((r) => control.close(r));
});

const pods = (): KubeObject[] => standIn.api.list("Pod", { namespace: "kule-replicas" }).filter((p) => !p.metadata.deletionTimestamp);
const containerOf = (p: KubeObject) => (p.spec as { containers: { args?: string[]; command?: string[]; env?: { name: string; value: string }[]; resources: { limits: Record<string, string> }; volumeMounts?: { mountPath: string }[] }[] }).containers[0]!;

async function serves(driver: ClusterDriver, id: string, gpuCount: number): Promise<void> {
  const ready = await driver.awaitReady(id, 20_000);
  expect(ready.state).toBe("ready");
  const client = new OpenAI({ baseURL: `${ready.url}/v1`, apiKey: "sim" });
  const answer = await client.chat.completions.create({ model: "llama-3.1-70b-instruct", messages: [{ role: "user", content: "Merhaba" }], max_tokens: 8 });
  expect(answer.choices[0]!.message.content!.length).toBeGreaterThan(0);
  // The engine behind it holds every GPU of the group.
  expect(cluster.replica(id).placement.gpuUuids).toHaveLength(gpuCount);
}

async function stops(driver: ClusterDriver, id: string): Promise<void> {
  await driver.stopReplica(id);
  expect((await driver.listReplicas()).map((r) => r.id)).not.toContain(id);
  await expect.poll(() => cluster.replicas.has(id) && cluster.replica(id).state !== "stopped", { timeout: 10_000 }).toBe(false);
}

const drivers: { name: string; driver: () => ClusterDriver }[] = [
  { name: "sim", driver: () => sim },
  { name: "kubernetes", driver: () => kubernetes },
];

for (const d of drivers) {
  describe(`group replica contract: ${d.name}`, () => {
    it("runs a TP 2 group on one node's two GPUs, serves it, and stops it", async () => {
      const id = `tp2-${d.name}`;
      await d.driver().startReplica(spec(id, tp2));
      await serves(d.driver(), id, 2);
      await stops(d.driver(), id);
    });

    it("runs a pipeline of two stages over two nodes, serves it, and stops it whole", async () => {
      const id = `pp2-${d.name}`;
      await d.driver().startReplica(spec(id, pp2));
      await serves(d.driver(), id, 4);
      expect(cluster.replica(id).placement.gpuUuids.sort()).toEqual([...(pp2 as { gpuUuids: string[] }).gpuUuids].sort());
      await stops(d.driver(), id);
    });
  });
}

describe("group replicas as Kubernetes objects", () => {
  it("a TP group is one pod pinned to its node asking for all its GPUs, with vLLM's split and shared memory for NCCL", async () => {
    await kubernetes.startReplica(spec("tp2-shape", tp2));
    const pod = pods().find((p) => p.metadata.annotations?.["kule.io/replica"] === "tp2-shape")!;
    const c = containerOf(pod);
    expect(c.resources.limits["nvidia.com/gpu"]).toBe("2");
    expect(c.args!.join(" ")).toContain("--tensor-parallel-size 2");
    expect(c.volumeMounts!.map((m) => m.mountPath)).toContain("/dev/shm");
    expect((pod.spec as { nodeSelector: Record<string, string> }).nodeSelector["kubernetes.io/hostname"]).toBe("gpu-llm-02");
    await kubernetes.awaitReady("tp2-shape", 20_000);
    await stops(kubernetes, "tp2-shape");
  });

  it("a pipeline is a LeaderWorkerSet of its own, size 2, that passes the CRD's schema; the worker joins its leader on the second node", async () => {
    await kubernetes.startReplica(spec("pp2-shape", pp2));
    const [lws] = standIn.api.list("LeaderWorkerSet", { namespace: "kule-replicas" });
    expect(lws!.spec).toMatchObject({ replicas: 1, leaderWorkerTemplate: { size: 2, restartPolicy: "None" } });
    expect(schemaErrors(lws!)).toEqual([]);
    // The schema is not a formality: a size of 0, an unknown restart policy and a container without an image are refused by field.
    const broken = structuredClone(lws!) as KubeObject & { spec: { leaderWorkerTemplate: { size: number; restartPolicy: string; workerTemplate: { spec: { containers: { image?: string; name?: string }[] } } } } };
    Object.assign(broken.spec.leaderWorkerTemplate, { size: 0, restartPolicy: "Sometimes" });
    delete broken.spec.leaderWorkerTemplate.workerTemplate.spec.containers[0]!.name;
    expect(schemaErrors(broken).map((c) => c.field)).toEqual(expect.arrayContaining(["spec.leaderWorkerTemplate.size", "spec.leaderWorkerTemplate.restartPolicy", expect.stringMatching(/^spec\.leaderWorkerTemplate\.workerTemplate\.spec\.containers\[0\]/)]));
    await kubernetes.awaitReady("pp2-shape", 20_000);
    const group = pods().filter((p) => p.metadata.labels?.["leaderworkerset.sigs.k8s.io/name"] === lws!.metadata.name);
    const leader = group.find((p) => p.metadata.labels?.["leaderworkerset.sigs.k8s.io/worker-index"] === "0")!;
    const worker = group.find((p) => p.metadata.labels?.["leaderworkerset.sigs.k8s.io/worker-index"] === "1")!;
    const nodeOf = (p: KubeObject) => (p.spec as { nodeName?: string }).nodeName;
    expect([nodeOf(leader), nodeOf(worker)]).toEqual(["gpu-llm-02", "gpu-llm-03"]);
    expect(containerOf(leader).args!.join(" ")).toContain("--tensor-parallel-size 2 --pipeline-parallel-size 2 --distributed-executor-backend ray");
    expect(containerOf(worker).resources.limits["nvidia.com/gpu"]).toBe("2");
    expect(containerOf(worker).env).toContainEqual({ name: "LWS_LEADER_ADDRESS", value: `${leader.metadata.name}.${lws!.metadata.name}.kule-replicas` });
    expect(worker.metadata.annotations?.["kule.io/worker-of"]).toBe("pp2-shape");
    await stops(kubernetes, "pp2-shape");
    await expect.poll(() => standIn.api.list("LeaderWorkerSet", { namespace: "kule-replicas" }).length, { timeout: 10_000 }).toBe(0);
    await expect.poll(() => pods().filter((p) => p.metadata.labels?.["leaderworkerset.sigs.k8s.io/name"]).length, { timeout: 10_000 }).toBe(0);
  });

  it("with the KServe workload, a TP group is an InferenceService asking for its GPUs", async () => {
    await kserve.startReplica(spec("tp2-kserve", tp2));
    const [isvc] = standIn.api.list("InferenceService", { namespace: "kule-replicas" }).filter((o) => o.metadata.name!.endsWith("-gpu2"));
    expect((isvc!.spec as { predictor: { containers: { resources: { limits: Record<string, string> } }[] } }).predictor.containers[0]!.resources.limits["nvidia.com/gpu"]).toBe("2");
    await kserve.awaitReady("tp2-kserve", 20_000);
    await stops(kserve, "tp2-kserve");
  });

  it("reads NVLink from the boards GPU feature discovery names, and refuses a stage across nodes or a pipeline on another engine", async () => {
    const node = (await kubernetes.listTopology()).pools.flatMap((p) => p.nodes).find((n) => n.hostname === "gpu-llm-02")!;
    expect(node.gpus.every((g) => g.nvlinkDomain === 0)).toBe(true);
    const vision = (await kubernetes.listTopology()).pools.flatMap((p) => p.nodes).find((n) => n.hostname.startsWith("gpu-vis"))!;
    expect(vision.gpus.every((g) => g.nvlinkDomain === null)).toBe(true);
    const split: Device = { kind: "group", gpuUuids: [gpuUuid("gpu-llm-02", 6), gpuUuid("gpu-llm-03", 6)], tensorParallel: 2, pipelineParallel: 1 };
    await expect(kubernetes.startReplica(spec("split", split))).rejects.toThrow(/Stage 1 of the group spans gpu-llm-02 and gpu-llm-03: tensor parallelism stays within one node/);
    await expect(kubernetes.startReplica({ ...spec("trt", pp2), engine: "tensorrt_llm" })).rejects.toThrow(/Pipelines across nodes run on vLLM/);
  });
});
