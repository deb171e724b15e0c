import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor, makeModelWithVersions, testDb, testDrivers, uid } from "../test/harness.ts";
import { startClusterSync } from "./sync.ts";
import type { Actor } from "../auth/actor.ts";

let operator: Actor;
let stopSync: () => void;

/**
 * A 70B model in FP8 with its card and a served context of 8k × 8: 66 GiB of weights do not fit one
 * H100 with its KV cache, so Kule splits it over the two H100s of llm-1 (tensor parallel 2).
 */
async function bigEndpoint() {
  const db = testDb();
  const nodePool = await db.nodePool.findFirstOrThrow({ where: { name: "llm", cluster: { name: "test-sim" } } });
  const model = await makeModelWithVersions(["1.0"]);
  await db.modelVersion.update({ where: { id: model.versions[0]!.id }, data: { parameterCount: 70_600_000_000n, weightBytes: 70_600_000_000n, minGpuMemoryBytes: 0n, contextTokens: 8192, maxBatch: 8, layers: 80, kvHeads: 8, headDim: 128 } });
  const endpoint = await db.endpoint.create({
    data: { name: `Big ${uid()}`, slug: `big-${uid()}`, modelId: model.id, engine: "vllm", nodePoolId: nodePool.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 8000, versions: { create: { modelVersionId: model.versions[0]!.id, weight: 100, state: "pending" } } },
    include: { versions: true },
  });
  return { endpoint, versionId: endpoint.versions[0]!.id, modelVersionId: model.versions[0]!.id };
}

const replica = (id: string) => testDb().replica.findUniqueOrThrow({ where: { id }, include: { gpus: { orderBy: { rank: "asc" }, include: { gpu: true } } } });

beforeAll(async () => {
  operator = await makeActor("operator");
  stopSync = startClusterSync(testDb(), testDrivers());
});
afterAll(() => stopSync());

describe("a replica over a group of GPUs", () => {
  it("is offered, started and drawn as one group over the node's two whole GPUs, holds both, and fails whole when one GPU fails", async () => {
    const { endpoint, versionId, modelVersionId } = await bigEndpoint();
    const op = caller(operator);
    const fit = await op.rollout.fit({ endpointId: endpoint.id, modelVersionId });
    expect(fit.parallelism).toEqual({ tensor: 2, pipeline: 1 });
    expect(fit.lines.find((l) => l.gpus === 1)).toMatchObject({ fits: false });
    expect(fit.lines.find((l) => l.chosen)).toMatchObject({ gpus: 2, fits: true });

    const offered = await op.cluster.freeDevices({ endpointVersionId: versionId });
    expect(offered.parallelism).toEqual({ tensor: 2, pipeline: 1 });
    expect(offered.devices).toHaveLength(1);
    expect(offered.devices[0]).toMatchObject({ label: "llm-1 GPU 0+1", device: { kind: "group" } });

    const r = await op.cluster.startReplica({ endpointVersionId: versionId, device: offered.devices[0]!.device });
    expect(r.placementReason).toMatch(/^llm-1 GPU 0\+1 \(TP 2\): .* per GPU at TP 2 .*chosen by hand\.$/);
    await expect.poll(async () => (await replica(r.id)).state, { timeout: 15_000 }).toBe("ready");
    const row = await replica(r.id);
    expect({ tp: row.tensorParallel, pp: row.pipelineParallel, gpus: row.gpus.map((g) => g.gpu.index) }).toEqual({ tp: 2, pp: 1, gpus: [0, 1] });

    const node = await op.cluster.node({ hostname: "llm-1" });
    expect(node.groups).toHaveLength(1);
    expect(node.groups[0]).toMatchObject({ tensorParallel: 2, gpuIndices: [0, 1], members: ["llm-1 GPU 0", "llm-1 GPU 1"] });
    expect(node.gpus.map((g) => g.group?.rank)).toEqual([0, 1]);

    // Nothing else lands on a GPU the group holds: not another group, not a single replica, not a MIG layout.
    await expect(op.rollout.deploy({ endpointId: endpoint.id, modelVersionId, replicas: 1, expectedRevision: endpoint.revision })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("needs 2 free H100 on one node") });
    const small = await makeModelWithVersions(["1.0"]);
    const other = await testDb().endpoint.create({ data: { name: `S ${uid()}`, slug: `s-${uid()}`, modelId: small.id, engine: "vllm", nodePoolId: endpoint.nodePoolId, sloAvailabilityPct: "99.9", sloP99LatencyMs: 2000, versions: { create: { modelVersionId: small.versions[0]!.id, weight: 100 } } }, include: { versions: true } });
    await expect(op.cluster.startReplica({ endpointVersionId: other.versions[0]!.id, device: { kind: "gpu", gpuId: row.gpus[1]!.gpuId } })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(`is held by replica ${r.id}`) });
    await expect(op.cluster.applyMig({ gpuId: row.gpus[1]!.gpuId, layout: [{ profile: "7g.80gb", startSlot: 0 }] })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("a group takes whole GPUs") });
    const preview = await op.cluster.previewMigChange({ changes: [{ gpuId: row.gpus[1]!.gpuId, layout: [{ profile: "7g.80gb", startSlot: 0 }] }] });
    expect(preview.refused).toContain(`held by replica ${r.id}`);

    // One GPU's XID takes the whole group down, and the page says which GPU.
    await op.cluster.injectFault({ type: "gpu-xid", gpuId: row.gpus[1]!.gpuId, xid: 79 });
    await expect.poll(async () => (await replica(r.id)).state, { timeout: 10_000 }).toBe("failed");
    expect((await replica(r.id)).reason).toBe("NCCL error: unhandled cuda error (GPU 1 of llm-1 reported XID 79); the whole group stopped.");
    await op.cluster.clearFaults();
    await op.cluster.stopReplica({ replicaId: r.id, drainSeconds: 0 });
    expect((await op.cluster.freeDevices({ endpointVersionId: versionId })).devices).toHaveLength(1);
  });

  it("refuses a hand-picked group that does not match the version's split, or takes a MIG GPU", async () => {
    const { versionId } = await bigEndpoint();
    const db = testDb();
    const a = await db.gpu.findFirstOrThrow({ where: { index: 0, node: { hostname: "llm-1" } } });
    const mig = await db.gpu.findFirstOrThrow({ where: { index: 0, node: { hostname: "llm-2" } } });
    const op = caller(operator);
    await expect(op.cluster.startReplica({ endpointVersionId: versionId, device: { kind: "group", gpuIds: [a.id, mig.id] } })).rejects.toMatchObject({ message: expect.stringContaining("is in MIG mode: a tensor-parallel group takes whole GPUs") });
    await expect(op.cluster.startReplica({ endpointVersionId: versionId, device: { kind: "gpu", gpuId: a.id } })).rejects.toMatchObject({ message: expect.stringContaining("is served as TP 2: choose 2 whole GPUs") });
    await expect(op.cluster.startReplica({ endpointVersionId: versionId, device: { kind: "group", gpuIds: [a.id, a.id] } })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("a GPU appears twice") });
    expect(await db.replica.count({ where: { endpointVersionId: versionId } })).toBe(0);
  });

  it("keeps a split chosen at deploy (the capacity planner's layout) for the endpoint's version: the fit, the deploy and later starts use it", async () => {
    const db = testDb();
    const nodePool = await db.nodePool.findFirstOrThrow({ where: { name: "llm", cluster: { name: "test-sim" } } });
    const model = await makeModelWithVersions(["1.0"]);
    const mvId = model.versions[0]!.id;
    // An 8B model fits one H100: Kule alone would serve it on one GPU.
    const endpoint = await db.endpoint.create({ data: { name: `Split ${uid()}`, slug: `split-${uid()}`, modelId: model.id, engine: "vllm", nodePoolId: nodePool.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 8000 } });
    const op = caller(operator);
    expect((await op.rollout.fit({ endpointId: endpoint.id, modelVersionId: mvId })).parallelism).toEqual({ tensor: 1, pipeline: 1 });
    const asked = { tensor: 2, pipeline: 1 };
    expect((await op.rollout.fit({ endpointId: endpoint.id, modelVersionId: mvId, parallelism: asked })).lines.find((l) => l.chosen)).toMatchObject({ gpus: 2, fits: true });
    await expect(op.rollout.deploy({ endpointId: endpoint.id, modelVersionId: mvId, replicas: 1, parallelism: { tensor: 9, pipeline: 1 }, expectedRevision: endpoint.revision })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("1 to 8 GPUs of a node") });

    const { replicas } = await op.rollout.deploy({ endpointId: endpoint.id, modelVersionId: mvId, replicas: 1, parallelism: asked, expectedRevision: endpoint.revision });
    const row = await replica(replicas[0]!.id);
    expect({ tp: row.tensorParallel, gpus: row.gpus.map((g) => `${g.gpu.index}`) }).toEqual({ tp: 2, gpus: ["0", "1"] });
    const ev = await db.endpointVersion.findFirstOrThrow({ where: { endpointId: endpoint.id, modelVersionId: mvId } });
    expect({ tp: ev.tensorParallel, pp: ev.pipelineParallel }).toEqual({ tp: 2, pp: 1 });
    // A start by hand (as the autoscaler's) is offered the same split, not the one-GPU default.
    expect((await op.cluster.freeDevices({ endpointVersionId: ev.id })).parallelism).toEqual(asked);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "endpoint.deploy", targetId: endpoint.id } });
    expect(audit.after).toMatchObject({ split: "TP 2" });
    await op.cluster.stopReplica({ replicaId: row.id, drainSeconds: 0 });
  });
});
