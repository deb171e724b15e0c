import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor, makeModelWithVersions, testDb, testDrivers, uid } from "../test/harness.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { Autoscaler } from "./loop.ts";
import type { Actor } from "../auth/actor.ts";

let operator: Actor;
let stopSync: () => void;
/** The signal the loop reads, per version (Prometheus in production; the decision maths has its own unit tests). */
const signals = new Map<string, number>();
let autoscaler: Autoscaler;

async function endpointOn(pool: string) {
  const db = testDb();
  const nodePool = await db.nodePool.findFirstOrThrow({ where: { name: pool, cluster: { name: "test-sim" } } });
  const model = await makeModelWithVersions(["1.0"]);
  await db.modelVersion.update({ where: { id: model.versions[0]!.id }, data: { parameterCount: 1_000_000_000n, weightBytes: 1_000_000_000n, minGpuMemoryBytes: 1_200_000_000n } });
  const endpoint = await db.endpoint.create({
    data: { name: `Auto ${uid()}`, slug: `auto-${uid()}`, modelId: model.id, engine: "vllm", nodePoolId: nodePool.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 2000, versions: { create: { modelVersionId: model.versions[0]!.id, weight: 100, state: "pending" } } },
    include: { versions: true },
  });
  return { endpointId: endpoint.id, versionId: endpoint.versions[0]!.id };
}

const live = (versionId: string) => testDb().replica.findMany({ where: { endpointVersionId: versionId, state: { in: ["pending", "loading", "ready"] } } });

beforeAll(async () => {
  operator = await makeActor("operator");
  stopSync = startClusterSync(testDb(), testDrivers());
  autoscaler = new Autoscaler({ db: testDb(), drivers: testDrivers(), signal: async (_s, v, ready) => (ready ? (signals.get(v) ?? null) : null) });
});
afterAll(async () => {
  await autoscaler.settle();
  stopSync();
});

describe("autoscaling", () => {
  it("keeps the policy in the database, detects a stale edit, and refuses a version served by external servers", async () => {
    const { versionId } = await endpointOn("cpu");
    const policy = { endpointVersionId: versionId, minReplicas: 0, maxReplicas: 2, signal: "waiting_per_replica" as const, target: 4, enabled: false };
    const p = await caller(operator).autoscale.set(policy);
    expect(p).toMatchObject({ minReplicas: 0, revision: 1 });
    await caller(operator).autoscale.set({ ...policy, maxReplicas: 3, expectedRevision: 1 });
    await expect(caller(operator).autoscale.set({ ...policy, expectedRevision: 1 })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await testDb().auditEvent.count({ where: { action: "autoscale.policy.set", targetId: versionId } })).toBe(2);

    const ext = await endpointOn("cpu");
    await testDb().replica.create({ data: { endpointVersionId: ext.versionId, driver: "external", externalUrl: "https://10.0.0.9:8000", region: "tr-ist", state: "ready" } });
    await expect(caller(operator).autoscale.set({ ...policy, endpointVersionId: ext.versionId })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/external driver cannot start or stop/) });
  });

  it("keeps the warm floor, adds on the signal without piling up while replicas start, and records each decision", async () => {
    const { endpointId, versionId } = await endpointOn("llm");
    await caller(operator).autoscale.set({ endpointVersionId: versionId, minReplicas: 1, maxReplicas: 3, signal: "waiting_per_replica", target: 2, scaleDownWindowSeconds: 0 });
    await autoscaler.tick();
    const first = await live(versionId);
    expect(first).toHaveLength(1);
    expect(first[0]!.placementReason).toMatch(/the smallest free device of pool llm that holds it/);
    // The replica is still starting: a second tick adds nothing, whatever the floor or signal.
    await autoscaler.tick();
    expect(await live(versionId)).toHaveLength(1);
    await expect.poll(async () => (await live(versionId))[0]?.state, { timeout: 10_000 }).toBe("ready");

    signals.set(versionId, 5); // 5 waiting on 1 replica, target 2: 3 replicas, once a second reading agrees
    await autoscaler.tick();
    expect(await live(versionId)).toHaveLength(1);
    await autoscaler.tick();
    expect(await live(versionId)).toHaveLength(3);
    await autoscaler.tick();
    expect(await live(versionId)).toHaveLength(3);

    const history = await caller(operator).autoscale.history({ endpointId });
    expect(history.points.map((x) => [x.action, x.desired])).toEqual([["scale_up", 1], ["scale_up", 3]]);
    expect(history.points[1]!.reason).toMatch(/1 → 3: waiting requests per replica 5\.00 \(target 2\.00\)/);
    expect(history.points[1]!.value).toBe(5);

    await expect.poll(async () => (await live(versionId)).filter((r) => r.state === "ready").length, { timeout: 10_000 }).toBe(3);
    signals.set(versionId, 0);
    await autoscaler.tick();
    await autoscaler.settle();
    expect(await live(versionId)).toHaveLength(1);
    const stops = await testDb().auditEvent.count({ where: { action: "replica.stop", actorId: "system:autoscaler", targetId: { in: (await testDb().replica.findMany({ where: { endpointVersionId: versionId } })).map((r) => r.id) } } });
    expect(stops).toBe(2);
    await caller(operator).autoscale.remove({ endpointVersionId: versionId });
    for (const r of await live(versionId)) await caller(operator).cluster.stopReplica({ replicaId: r.id });
  });

  it("starts one replica from zero when a gateway holds calls for the version", async () => {
    const { versionId } = await endpointOn("cpu");
    await caller(operator).autoscale.set({ endpointVersionId: versionId, minReplicas: 0, maxReplicas: 1, signal: "in_flight_per_replica", target: 4 });
    await autoscaler.tick();
    expect(await live(versionId)).toHaveLength(0);
    await testDb().autoscalePolicy.update({ where: { endpointVersionId: versionId }, data: { wakeRequestedAt: new Date() } });
    await autoscaler.tick();
    expect(await live(versionId)).toHaveLength(1);
    expect((await testDb().autoscalePolicy.findUniqueOrThrow({ where: { endpointVersionId: versionId } })).lastDecision).toMatchObject({ action: "scale_up", reason: expect.stringMatching(/calls are waiting at the gateway/) });
    await caller(operator).autoscale.remove({ endpointVersionId: versionId });
    for (const r of await live(versionId)) await caller(operator).cluster.stopReplica({ replicaId: r.id });
  });

  it("scales a group version in whole groups and says the GPUs each step takes", async () => {
    const { endpointId, versionId } = await endpointOn("llm");
    // 70 GB of FP8 weights with 8 sequences of 8k: more than one H100 holds, so each replica is TP 2 over llm-1's two GPUs.
    const mv = (await testDb().endpointVersion.findUniqueOrThrow({ where: { id: versionId } })).modelVersionId;
    await testDb().modelVersion.update({ where: { id: mv }, data: { parameterCount: 70_600_000_000n, weightBytes: 70_600_000_000n, minGpuMemoryBytes: 0n, contextTokens: 8192, maxBatch: 8, layers: 80, kvHeads: 8, headDim: 128 } });
    await caller(operator).autoscale.set({ endpointVersionId: versionId, minReplicas: 1, maxReplicas: 2, signal: "waiting_per_replica", target: 2, scaleDownWindowSeconds: 0 });
    await autoscaler.tick();
    const [group] = await live(versionId);
    expect(group).toMatchObject({ tensorParallel: 2, pipelineParallel: 1 });
    expect(await testDb().replicaGpu.count({ where: { replicaId: group!.id } })).toBe(2);
    const history = await caller(operator).autoscale.history({ endpointId });
    expect(history.points.at(-1)!.reason).toMatch(/below the warm floor of 1; each replica is TP 2 over 2 GPUs, 2 GPUs in this step$/);
    await caller(operator).autoscale.set({ endpointVersionId: versionId, minReplicas: 0, maxReplicas: 2, signal: "waiting_per_replica", target: 2, enabled: false, expectedRevision: 1 });
    await caller(operator).cluster.stopReplica({ replicaId: group!.id, drainSeconds: 0 });
  });
});
