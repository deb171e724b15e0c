import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { caller, makeActor, makeModelWithVersions, testDb, testDrivers, uid } from "../test/harness.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { DrainWorker, PROPAGATION_MS } from "./drain.ts";
import { tickPlans, type Analyze } from "./plans.ts";
import type { Actor } from "../auth/actor.ts";
import type { Analysis } from "./machine.ts";

let operator: Actor;
let operator2: Actor;
let auditor: Actor;
let stopSync: () => void;
let drains: DrainWorker;

/** An endpoint on the simulator's CPU pool whose first version serves 100% from one ready replica. */
async function liveEndpoint(versions = ["1.0", "1.1"]) {
  const db = testDb();
  const pool = await db.nodePool.findFirstOrThrow({ where: { name: "cpu", cluster: { name: "test-sim" } } });
  const model = await makeModelWithVersions(versions);
  const mv = model.versions;
  const created = await caller(operator).endpoint.create({ name: `Roll ${uid()}`, slug: `roll-${uid()}`, modelId: model.id, modelVersionId: mv[0]!.id, engine: "vllm", nodePoolId: pool.id, sloAvailabilityPct: 99.9, sloP99LatencyMs: 2000 });
  const deployed = await caller(operator).rollout.deploy({ endpointId: created.id, modelVersionId: mv[0]!.id, replicas: 1, expectedRevision: created.revision });
  await waitReady(deployed.endpoint.versions[0]!.id);
  return { endpointId: created.id, model, stableId: created.versions[0]!.id };
}

async function waitReady(endpointVersionId: string) {
  for (let t = 0; t < 200; t++) {
    if ((await testDb().endpointVersion.findUniqueOrThrow({ where: { id: endpointVersionId } })).state === "ready") return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("version never became ready");
}

const get = (id: string) => caller(operator).endpoint.get({ id });
const weights = async (id: string) => Object.fromEntries((await get(id)).versions.map((v) => [v.modelVersion.version, v.weight]));

/** Deploys the endpoint's second model version beside the first and waits until it is ready. */
async function withCanary(e: Awaited<ReturnType<typeof liveEndpoint>>) {
  const before = await get(e.endpointId);
  const r = await caller(operator).rollout.deploy({ endpointId: e.endpointId, modelVersionId: e.model.versions[1]!.id, replicas: 1, expectedRevision: before.revision });
  const canary = r.endpoint.versions.find((v) => v.modelVersionId === e.model.versions[1]!.id)!;
  await waitReady(canary.id);
  return canary.id;
}

async function errorOf(p: Promise<unknown>): Promise<TRPCError> {
  try {
    await p;
  } catch (e) {
    return e as TRPCError;
  }
  throw new Error("expected an error");
}

beforeAll(async () => {
  operator = await makeActor("operator");
  operator2 = await makeActor("operator");
  auditor = await makeActor("auditor");
  stopSync = startClusterSync(testDb(), testDrivers());
  drains = new DrainWorker({ db: testDb(), drivers: testDrivers() });
});
afterAll(async () => {
  await drains.settle();
  stopSync();
});

describe("deploy", () => {
  it("places a version's replicas beside the live one; it takes no traffic until it is ready", async () => {
    const e = await liveEndpoint();
    const before = await get(e.endpointId);
    const r = await caller(operator).rollout.deploy({ endpointId: e.endpointId, modelVersionId: e.model.versions[1]!.id, replicas: 1, expectedRevision: before.revision });
    const canary = r.endpoint.versions.find((v) => v.modelVersionId === e.model.versions[1]!.id)!;
    expect(canary.weight).toBe(0);
    expect(r.replicas).toHaveLength(1);
    expect(["pending", "loading", "ready"]).toContain(r.replicas[0]!.state);
    await waitReady(canary.id);
    expect(await weights(e.endpointId)).toEqual({ "1.0": 100, "1.1": 0 });
    const history = await caller(operator).rollout.history({ endpointId: e.endpointId });
    expect(history.map((h) => h.action)).toContain("endpoint.deploy");
  });

  it("refuses before starting anything when not every replica fits, and says why", async () => {
    const e = await liveEndpoint();
    const replicasBefore = await testDb().replica.count();
    const err = await errorOf(caller(operator).rollout.deploy({ endpointId: e.endpointId, modelVersionId: e.model.versions[1]!.id, replicas: 2, expectedRevision: (await get(e.endpointId)).revision }));
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toMatch(/^replicas: only 1 of 2 replica\(s\) fit/);
    expect(await testDb().replica.count()).toBe(replicasBefore);
    expect((await get(e.endpointId)).versions).toHaveLength(1);
  });

  it("explains a version too big for any device of the pool, and one that only a group the pool cannot make would hold", async () => {
    const db = testDb();
    const pool = await db.nodePool.findFirstOrThrow({ where: { name: "llm", cluster: { name: "test-sim" } } });
    const model = await makeModelWithVersions(["1.0", "1.1"]);
    // 480 GiB: more than every GPU of the pool together holds, so no split is proposed.
    await db.modelVersion.update({ where: { id: model.versions[0]!.id }, data: { minGpuMemoryBytes: 480n * 2n ** 30n, weightBytes: 400n * 2n ** 30n } });
    // 200 GiB: split PP 2 × TP 2 over two nodes of two H100s, but llm-2's only GPU is in MIG mode.
    await db.modelVersion.update({ where: { id: model.versions[1]!.id }, data: { minGpuMemoryBytes: 200n * 2n ** 30n, weightBytes: 180n * 2n ** 30n } });
    const ep = await caller(operator).endpoint.create({ name: `Big ${uid()}`, slug: `big-${uid()}`, modelId: model.id, modelVersionId: model.versions[0]!.id, engine: "vllm", nodePoolId: pool.id, sloAvailabilityPct: 99.9, sloP99LatencyMs: 2000 });
    const err = await errorOf(caller(operator).rollout.deploy({ endpointId: ep.id, modelVersionId: model.versions[0]!.id, replicas: 1, expectedRevision: ep.revision }));
    expect(err.message).toContain("needs 480.0 GiB (the version's stated minimum; weights 400.0 GiB + KV cache for 4096 tokens");
    expect(err.message).toContain("largest free one has");
    const split = await errorOf(caller(operator).rollout.deploy({ endpointId: ep.id, modelVersionId: model.versions[1]!.id, replicas: 1, expectedRevision: ep.revision }));
    expect(split.message).toBe(
      "replicas: only 0 of 1 replica(s) fit: each is PP 2 × TP 2 over 4 GPUs of 50.0 GiB per GPU at PP 2 × TP 2 (the version's stated minimum; weights 45.0 GiB + KV cache for 4096 tokens 0.1 GiB); needs 2 nodes with 2 free H100 each; only 1 node has that (llm-1). Stop replicas, change a MIG layout or choose fewer replicas.",
    );
  });
});

describe("slider, promote, drain and rollback", () => {
  it("moves the slider; a second operator with a stale view gets a conflict and the current state", async () => {
    const e = await liveEndpoint();
    const canaryId = await withCanary(e);
    const seen = await get(e.endpointId);
    await caller(operator).rollout.setWeights({ endpointId: e.endpointId, expectedRevision: seen.revision, weights: [{ endpointVersionId: e.stableId, weight: 80 }, { endpointVersionId: canaryId, weight: 20 }] });
    const err = await errorOf(caller(operator2).rollout.setWeights({ endpointId: e.endpointId, expectedRevision: seen.revision, weights: [{ endpointVersionId: e.stableId, weight: 50 }, { endpointVersionId: canaryId, weight: 50 }] }));
    expect(err.code).toBe("CONFLICT");
    expect(err.message).toContain("Someone else changed this endpoint");
    expect(await weights(e.endpointId)).toEqual({ "1.0": 80, "1.1": 20 });
  });

  it("promotes: 100% to the new version, the old one drains, its replicas stop and it is retired", async () => {
    const e = await liveEndpoint();
    const canaryId = await withCanary(e);
    const oldReplica = await testDb().replica.findFirstOrThrow({ where: { endpointVersionId: e.stableId, state: "ready" } });
    await caller(operator).rollout.promote({ endpointId: e.endpointId, endpointVersionId: canaryId, expectedRevision: (await get(e.endpointId)).revision, drainTimeoutSeconds: 5 });
    let v = (await get(e.endpointId)).versions;
    expect(v.map((x) => [x.modelVersion.version, x.weight, x.state])).toEqual([["1.0", 0, "draining"], ["1.1", 100, "ready"]]);
    // Before the gateways have had time to apply the change, nothing is stopped.
    await drains.tick(Date.now());
    expect((await testDb().replica.findUniqueOrThrow({ where: { id: oldReplica.id } })).state).toBe("ready");
    await drains.tick(Date.now() + PROPAGATION_MS);
    await drains.settle();
    expect((await testDb().replica.findUniqueOrThrow({ where: { id: oldReplica.id } })).state).toBe("stopped");
    await drains.tick(Date.now() + PROPAGATION_MS);
    v = (await get(e.endpointId)).versions;
    expect(v.find((x) => x.id === e.stableId)!.state).toBe("retired");
    const actions = (await caller(operator).rollout.history({ endpointId: e.endpointId })).map((h) => h.action);
    expect(actions.slice(0, 2)).toEqual(["endpoint.version.retire", "endpoint.promote"]);
    // The old version is gone: a rollback has nowhere to go and says so.
    const err = await errorOf(caller(operator).rollout.rollback({ endpointId: e.endpointId, expectedRevision: (await get(e.endpointId)).revision }));
    expect(err.message).toContain("version 1.0 last held all traffic but is retired");
  });

  it("rolls back in one click to the last version that held 100%; the canary's replicas stay up", async () => {
    const e = await liveEndpoint();
    const canaryId = await withCanary(e);
    await caller(operator).rollout.setWeights({ endpointId: e.endpointId, expectedRevision: (await get(e.endpointId)).revision, weights: [{ endpointVersionId: e.stableId, weight: 70 }, { endpointVersionId: canaryId, weight: 30 }] });
    const after = await caller(operator).rollout.rollback({ endpointId: e.endpointId, expectedRevision: (await get(e.endpointId)).revision });
    expect(after.versions.map((v) => [v.modelVersion.version, v.weight, v.state])).toEqual([["1.0", 100, "ready"], ["1.1", 0, "ready"]]);
    expect(after.versions[1]!.replicas.filter((r) => r.state === "ready")).toHaveLength(1);
    const [last] = await caller(operator).rollout.history({ endpointId: e.endpointId });
    expect(last).toMatchObject({ action: "endpoint.rollback", by: operator.email, after: { to: "1.0" } });
  });

  it("blue-green: 0 → 100 at once, the old version kept warm for an instant way back, then drained", async () => {
    const e = await liveEndpoint();
    const canaryId = await withCanary(e);
    await caller(operator).rollout.blueGreen({ endpointId: e.endpointId, endpointVersionId: canaryId, expectedRevision: (await get(e.endpointId)).revision, keepWarmSeconds: 60, drainTimeoutSeconds: 2 });
    expect(await weights(e.endpointId)).toEqual({ "1.0": 0, "1.1": 100 });
    await drains.tick(Date.now() + 10_000); // still warm
    expect((await get(e.endpointId)).versions[0]!.state).toBe("ready");
    const back = await caller(operator).rollout.rollback({ endpointId: e.endpointId, expectedRevision: (await get(e.endpointId)).revision });
    expect(back.versions.map((v) => v.weight)).toEqual([100, 0]);
    // Forward again, and this time let the warm period end.
    await caller(operator).rollout.blueGreen({ endpointId: e.endpointId, endpointVersionId: canaryId, expectedRevision: back.revision, keepWarmSeconds: 1, drainTimeoutSeconds: 2 });
    await drains.tick(Date.now() + 1500);
    expect((await get(e.endpointId)).versions[0]!.state).toBe("draining");
    await drains.tick(Date.now() + 1500 + PROPAGATION_MS);
    await drains.settle();
    await drains.tick(Date.now() + 1500 + PROPAGATION_MS);
    expect((await get(e.endpointId)).versions[0]!.state).toBe("retired");
  });

  it("refuses to remove a version that serves traffic, and removes one that does not", async () => {
    const e = await liveEndpoint();
    const canaryId = await withCanary(e);
    const err = await errorOf(caller(operator).rollout.removeVersion({ endpointId: e.endpointId, endpointVersionId: e.stableId, expectedRevision: (await get(e.endpointId)).revision }));
    expect(err.message).toBe("endpointVersionId: version 1.0 serves 100% of traffic: move its traffic to another version first");
    await caller(operator).rollout.removeVersion({ endpointId: e.endpointId, endpointVersionId: canaryId, expectedRevision: (await get(e.endpointId)).revision, drainTimeoutSeconds: 1 });
    await drains.tick(Date.now() + PROPAGATION_MS);
    await drains.settle();
    await drains.tick(Date.now() + PROPAGATION_MS);
    expect((await get(e.endpointId)).versions.find((v) => v.id === canaryId)!.state).toBe("retired");
  });

  it("lets auditors read the history but not move anything", async () => {
    const e = await liveEndpoint();
    expect((await caller(auditor).rollout.history({ endpointId: e.endpointId })).length).toBeGreaterThan(0);
    const err = await errorOf(caller(auditor).rollout.rollback({ endpointId: e.endpointId, expectedRevision: 1 }));
    expect(err.code).toBe("FORBIDDEN");
  });
});

describe("automatic canary plans", () => {
  const healthy = { requests: 400, errorRate: 0, p95Ms: 100, ttftP95Ms: 50 };
  const steps = [{ weight: 10, holdSeconds: 1 }, { weight: 50, holdSeconds: 1 }, { weight: 100, holdSeconds: 1 }];
  const analysis = { windowSeconds: 30, latencyMarginPct: 20, latencyMarginMs: 25, errorMarginPoints: 1, minRequests: 20 };

  it("advances a healthy canary through every step to the promote, recording each decision", async () => {
    const e = await liveEndpoint();
    const canaryId = await withCanary(e);
    const plan = await caller(operator).rollout.startPlan({ endpointId: e.endpointId, canaryVersionId: canaryId, expectedRevision: (await get(e.endpointId)).revision, steps, analysis, drainTimeoutSeconds: 1 });
    expect(await weights(e.endpointId)).toEqual({ "1.0": 90, "1.1": 10 });
    const analyze: Analyze = async () => ({ canary: healthy, stable: healthy });
    let now = Date.now();
    const mine = (d: Awaited<ReturnType<typeof tickPlans>>) => d.filter((x) => x.rolloutId === plan.id).map((x) => x.decision.kind);
    expect(mine(await tickPlans(testDb(), analyze, now))).toEqual([]); // holding step 1
    now += 1000;
    expect(mine(await tickPlans(testDb(), analyze, now))).toEqual(["step"]);
    expect(await weights(e.endpointId)).toEqual({ "1.0": 50, "1.1": 50 });
    now += 1000;
    expect(mine(await tickPlans(testDb(), analyze, now))).toEqual(["promote"]);
    const v = (await get(e.endpointId)).versions;
    expect(v.map((x) => [x.weight, x.state])).toEqual([[0, "draining"], [100, "ready"]]);
    const history = await caller(operator).rollout.history({ endpointId: e.endpointId });
    expect(history.slice(0, 3).map((h) => [h.action, h.by])).toEqual([
      ["rollout.auto.promote", "Kule (automatic)"],
      ["rollout.auto.advance", "Kule (automatic)"],
      ["rollout.start", operator.email],
    ]);
    expect(history[0]!.after).toMatchObject({ metrics: { canary: healthy } });
    expect(await caller(operator).rollout.active({ endpointId: e.endpointId })).toBeNull();
  });

  it("rolls a failing canary back by itself, naming the metric, its value and the threshold", async () => {
    const e = await liveEndpoint();
    const canaryId = await withCanary(e);
    const plan = await caller(operator).rollout.startPlan({ endpointId: e.endpointId, canaryVersionId: canaryId, expectedRevision: (await get(e.endpointId)).revision, steps, analysis });
    const analyze: Analyze = async (): Promise<Analysis> => ({ canary: { ...healthy, errorRate: 0.05 }, stable: healthy });
    await tickPlans(testDb(), analyze);
    expect(await weights(e.endpointId)).toEqual({ "1.0": 100, "1.1": 0 });
    const [last] = await caller(operator).rollout.history({ endpointId: e.endpointId });
    expect(last).toMatchObject({ action: "rollout.auto.rollback", automatic: true, after: { rolloutId: plan.id, decision: { kind: "rollback", breach: { metric: "error_rate", value: 0.05, against: "slo" } } } });
    const recent = await caller(operator).rollout.recent({ endpointId: e.endpointId });
    expect(recent[0]).toMatchObject({ state: "rolled_back", outcome: { why: "breach", breach: { metric: "error_rate" } } });
  });

  it("refuses a second plan on the endpoint, and hand moves of the slider while one runs", async () => {
    const e = await liveEndpoint();
    const canaryId = await withCanary(e);
    const plan = await caller(operator).rollout.startPlan({ endpointId: e.endpointId, canaryVersionId: canaryId, expectedRevision: (await get(e.endpointId)).revision, steps, analysis });
    const again = await errorOf(caller(operator2).rollout.startPlan({ endpointId: e.endpointId, canaryVersionId: canaryId, expectedRevision: (await get(e.endpointId)).revision, steps, analysis }));
    expect(again.code).toBe("CONFLICT");
    expect(again.message).toContain("A rollout is already in progress on this endpoint (1.0 → 1.1, step 1 of 3, running)");
    const slider = await errorOf(caller(operator).rollout.setWeights({ endpointId: e.endpointId, expectedRevision: (await get(e.endpointId)).revision, weights: [{ endpointVersionId: e.stableId, weight: 50 }, { endpointVersionId: canaryId, weight: 50 }] }));
    expect(slider.message).toContain("pause or abort it first");
    // Pause, then a stale operator's resume is refused; abort puts all traffic back on stable.
    const paused = await caller(operator).rollout.planAction({ rolloutId: plan.id, action: "pause", expectedRevision: plan.revision });
    const stale = await errorOf(caller(operator2).rollout.planAction({ rolloutId: plan.id, action: "resume", expectedRevision: plan.revision }));
    expect(stale.code).toBe("CONFLICT");
    await caller(operator).rollout.planAction({ rolloutId: plan.id, action: "abort", expectedRevision: paused.revision });
    expect(await weights(e.endpointId)).toEqual({ "1.0": 100, "1.1": 0 });
    expect(await caller(operator).rollout.active({ endpointId: e.endpointId })).toBeNull();
  });

  it("rejects plans that make no sense, naming the field", async () => {
    const e = await liveEndpoint();
    const canaryId = await withCanary(e);
    const rev = (await get(e.endpointId)).revision;
    const bad = await errorOf(caller(operator).rollout.startPlan({ endpointId: e.endpointId, canaryVersionId: canaryId, expectedRevision: rev, steps: [{ weight: 50, holdSeconds: 5 }, { weight: 20, holdSeconds: 5 }, { weight: 100, holdSeconds: 1 }], analysis }));
    expect(bad.code).toBe("BAD_REQUEST");
    expect(bad.message).toContain("each step's weight must be above the previous one");
    const noEnd = await errorOf(caller(operator).rollout.startPlan({ endpointId: e.endpointId, canaryVersionId: canaryId, expectedRevision: rev, steps: [{ weight: 50, holdSeconds: 5 }], analysis }));
    expect(noEnd.code).toBe("BAD_REQUEST");
    expect(noEnd.message).toContain("the last step must be 100 (the promote)");
  });
});
