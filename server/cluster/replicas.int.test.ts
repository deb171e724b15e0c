import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor, makeModelWithVersions, testDb, testDrivers, uid } from "../test/harness.ts";
import { startClusterSync } from "./sync.ts";
import { reconcileReplicas } from "./replicas.ts";
import type { Actor } from "../auth/actor.ts";

let operator: Actor;
let stopSync: () => void;

/** An endpoint on a pool of the simulator's cluster, with its first version. */
async function endpointOn(pool: string, params = 8_000_000_000n) {
  const db = testDb();
  const nodePool = await db.nodePool.findFirstOrThrow({ where: { name: pool, cluster: { name: "test-sim" } } });
  const model = await makeModelWithVersions(["1.0"]);
  await db.modelVersion.update({ where: { id: model.versions[0]!.id }, data: { parameterCount: params, weightBytes: params, minGpuMemoryBytes: (params * 12n) / 10n } });
  const endpoint = await db.endpoint.create({
    data: { name: `Sim ${uid()}`, slug: `sim-${uid()}`, modelId: model.id, engine: "vllm", nodePoolId: nodePool.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 2000, versions: { create: { modelVersionId: model.versions[0]!.id, weight: 100, state: "pending" } } },
    include: { versions: true },
  });
  return { endpoint, versionId: endpoint.versions[0]!.id };
}

const gpu = (hostname: string, index: number) => testDb().gpu.findFirstOrThrow({ where: { index, node: { hostname } } });

async function replicaState(id: string) {
  return (await testDb().replica.findUniqueOrThrow({ where: { id } })).state;
}

beforeAll(async () => {
  operator = await makeActor("operator");
  stopSync = startClusterSync(testDb(), testDrivers());
});
afterAll(() => stopSync());

describe("replicas through the control plane", () => {
  it("starts a replica on a GPU; the database follows it to ready, and the version with it", async () => {
    const { versionId } = await endpointOn("llm");
    const g = await gpu("llm-1", 0);
    const r = await caller(operator).cluster.startReplica({ endpointVersionId: versionId, device: { kind: "gpu", gpuId: g.id } });
    expect(["loading", "pending"]).toContain(r.state);
    expect(r.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(r.placementReason).toMatch(/^llm-1 GPU 0: .* usable at 90% — needs .*; chosen by hand\.$/);
    await expect.poll(() => replicaState(r.id), { timeout: 10_000 }).toBe("ready");
    expect((await testDb().endpointVersion.findUniqueOrThrow({ where: { id: versionId } })).state).toBe("ready");
    const models = (await (await fetch(`${(await testDb().replica.findUniqueOrThrow({ where: { id: r.id } })).url}/v1/models`)).json()) as { data: unknown[] };
    expect(models.data).toHaveLength(1);

    const node = await caller(operator).cluster.node({ hostname: "llm-1" });
    expect(node.gpus[0]!.replicas.map((x) => x.id)).toContain(r.id);
    expect((await caller(operator).cluster.summary()).driver).toMatchObject({ kind: "sim", simulated: true, reachable: true });

    await caller(operator).cluster.stopReplica({ replicaId: r.id, drainSeconds: 0 });
    expect(await replicaState(r.id)).toBe("stopped");
    await expect(fetch(`${r.url}/health`)).rejects.toThrow();
  });

  it("a model too large for a MIG instance by the engine's memory rule is neither offered nor started there", async () => {
    // 60 GB of weights: a whole H100 holds it (a larger model would be split over a group instead).
    const { versionId } = await endpointOn("llm", 60_000_000_000n);
    const g = await gpu("llm-2", 0);
    const offered = await caller(operator).cluster.freeDevices({ endpointVersionId: versionId });
    expect(offered.devices.some((d) => d.device.kind === "mig" && d.device.gpuId === g.id)).toBe(false);
    await expect(caller(operator).cluster.startReplica({ endpointVersionId: versionId, device: { kind: "mig", gpuId: g.id, startSlot: 4 } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/device: .* too small: version 1\.0 needs .*weights 55\.9 GiB \+ KV cache for 4096 tokens/),
    });
    expect(await testDb().replica.count({ where: { endpointVersionId: versionId } })).toBe(0);
  });

  it("refuses a device outside the endpoint's node pool, naming the field", async () => {
    const { versionId } = await endpointOn("vision");
    const g = await gpu("fra-1", 0);
    await expect(caller(operator).cluster.startReplica({ endpointVersionId: versionId, device: { kind: "gpu", gpuId: g.id } })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/device: choose a GPU of the vision pool/) });
    expect(await testDb().replica.count({ where: { endpointVersionId: versionId } })).toBe(0);
  });

  it("keeps a device chosen by hand inside the endpoint's region rule, as the automatic placement does", async () => {
    const { endpoint, versionId } = await endpointOn("llm");
    await testDb().endpoint.update({ where: { id: endpoint.id }, data: { regionConstraint: "tr-ank" } });
    const g = await gpu("llm-1", 1);
    expect((await caller(operator).cluster.freeDevices({ endpointVersionId: versionId })).devices).toEqual([]);
    await expect(caller(operator).cluster.startReplica({ endpointVersionId: versionId, device: { kind: "gpu", gpuId: g.id } })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/device: llm-1 GPU 1 is in tr-ist, outside the endpoint's region rule tr-ank\*/) });
    expect(await testDb().replica.count({ where: { endpointVersionId: versionId } })).toBe(0);
  });

  it("a killed replica shows as failed with its reason, and the fault is audited", async () => {
    const { versionId } = await endpointOn("llm");
    const g = await gpu("llm-1", 1);
    const r = await caller(operator).cluster.startReplica({ endpointVersionId: versionId, device: { kind: "gpu", gpuId: g.id } });
    await expect.poll(() => replicaState(r.id), { timeout: 10_000 }).toBe("ready");
    await caller(operator).cluster.injectFault({ type: "kill-replica", replicaId: r.id });
    await expect.poll(() => replicaState(r.id), { timeout: 5000 }).toBe("failed");
    expect((await testDb().replica.findUniqueOrThrow({ where: { id: r.id } })).reason).toMatch(/killed/);
    expect(await testDb().auditEvent.count({ where: { action: "fault.kill-replica", actorId: operator.userId } })).toBe(1);
    await caller(operator).cluster.stopReplica({ replicaId: r.id, drainSeconds: 0 });
  });

  it("lays out MIG on an idle GPU by NVIDIA's rules, and refuses a layout that breaks them", async () => {
    const g = await gpu("fra-1", 0);
    await expect(caller(operator).cluster.applyMig({ gpuId: g.id, layout: [{ profile: "3g.40gb", startSlot: 2 }] })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/can start only at slot 0, 4/) });
    await caller(operator).cluster.applyMig({ gpuId: g.id, layout: [{ profile: "3g.40gb", startSlot: 0 }, { profile: "2g.20gb", startSlot: 4 }, { profile: "1g.10gb", startSlot: 6 }] });
    const after = await testDb().gpu.findUniqueOrThrow({ where: { id: g.id }, include: { migInstances: { orderBy: { startSlot: "asc" } } } });
    expect(after.migEnabled).toBe(true);
    expect(after.migInstances.map((m) => `${m.profile}@${m.startSlot}`)).toEqual(["3g.40gb@0", "2g.20gb@4", "1g.10gb@6"]);
    await caller(operator).cluster.applyMig({ gpuId: g.id, layout: [] });
  });

  it("registers an external server by URL and routes nothing to it until its health check passes", async () => {
    const { versionId } = await endpointOn("llm");
    const g = await gpu("llm-1", 0);
    // The "external" server is one the simulator runs, reached only by its URL.
    const backing = await caller(operator).cluster.startReplica({ endpointVersionId: versionId, device: { kind: "gpu", gpuId: g.id } });
    await expect.poll(() => replicaState(backing.id), { timeout: 10_000 }).toBe("ready");
    const ext = await caller(operator).cluster.registerExternal({ endpointVersionId: versionId, url: `${backing.url}/`, region: "tr-ist" });
    expect(ext.externalUrl).toBe(backing.url);
    await expect.poll(() => replicaState(ext.id), { timeout: 5000 }).toBe("ready");
    await caller(operator).cluster.stopReplica({ replicaId: ext.id, drainSeconds: 0 });
    expect((await fetch(`${backing.url}/health`)).status).toBe(200);
    await caller(operator).cluster.stopReplica({ replicaId: backing.id, drainSeconds: 0 });
  });

  it("after a simulator restart, replicas it no longer runs are recorded as stopped with the reason", async () => {
    const { versionId } = await endpointOn("cpu");
    const ghost = await testDb().replica.create({ data: { endpointVersionId: versionId, driver: "sim", region: "tr-ank", state: "ready", url: "http://127.0.0.1:9" } });
    const result = await reconcileReplicas(testDb(), testDrivers());
    expect(result.lost).toBeGreaterThanOrEqual(1);
    const row = await testDb().replica.findUniqueOrThrow({ where: { id: ghost.id } });
    expect(row).toMatchObject({ state: "stopped", url: null, reason: expect.stringMatching(/simulator restarted/) });
  });
});
