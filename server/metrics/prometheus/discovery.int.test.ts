import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor, makeModelWithVersions, testDb, testDrivers, uid } from "../../test/harness.ts";
import { startClusterSync } from "../../cluster/sync.ts";
import { discoverReplicas } from "./discovery.ts";
import type { ServingEngine } from "../../db/generated/enums.ts";
import type { Actor } from "../../auth/actor.ts";

let operator: Actor;
let stopSync: () => void;

/** An endpoint of `engine` on the simulator's CPU pool, with its first version. */
async function endpoint(engine: ServingEngine) {
  const db = testDb();
  const pool = await db.nodePool.findFirstOrThrow({ where: { name: "cpu", cluster: { name: "test-sim" } } });
  const model = await makeModelWithVersions(["2.1"]);
  await db.modelVersion.update({ where: { id: model.versions[0]!.id }, data: { parameterCount: 500_000_000n, weightBytes: 500_000_000n, minGpuMemoryBytes: 600_000_000n } });
  const e = await db.endpoint.create({
    data: { name: `SD ${uid()}`, slug: `sd-${uid()}`, modelId: model.id, engine, nodePoolId: pool.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 2000, versions: { create: { modelVersionId: model.versions[0]!.id, weight: 100, state: "pending" } } },
    include: { versions: true },
  });
  return { slug: e.slug, versionId: e.versions[0]!.id };
}

const state = async (id: string) => (await testDb().replica.findUniqueOrThrow({ where: { id } })).state;
const groupOf = async (replicaId: string) => (await discoverReplicas(testDb())).find((g) => g.labels.kule_replica === replicaId);

beforeAll(async () => {
  operator = await makeActor("operator");
  stopSync = startClusterSync(testDb(), testDrivers());
});
afterAll(() => stopSync());

describe("Kule's service discovery", () => {
  it("publishes every ready replica whatever its driver, at its metrics address, with Kule's labels", async () => {
    const chat = await endpoint("vllm");
    const cpu = await testDb().node.findFirstOrThrow({ where: { hostname: "cpu-1" } });
    const sim = await caller(operator).cluster.startReplica({ endpointVersionId: chat.versionId, device: { kind: "cpu", nodeId: cpu.id } });
    await expect.poll(() => state(sim.id), { timeout: 10_000 }).toBe("ready");
    const simRow = await testDb().replica.findUniqueOrThrow({ where: { id: sim.id } });
    expect(await groupOf(sim.id)).toEqual({
      targets: [new URL(simRow.url!).host],
      labels: {
        __scheme__: "http",
        __metrics_path__: "/metrics",
        kule_replica: sim.id,
        kule_endpoint: chat.slug,
        kule_version: "2.1",
        kule_version_id: chat.versionId,
        kule_engine: "vllm",
        kule_driver: "sim",
        kule_region: "tr-ank",
        kule_node: "cpu-1",
        // the engine's --max-num-seqs, as the simulator's driver reports it
        kule_max_num_seqs: "32",
      },
    });

    // External servers (here: the simulator's replica, reached only by its URL). A vLLM server is
    // scraped on its API port; a Triton one (ONNX Runtime through Triton) on port 8002.
    const ext = await caller(operator).cluster.registerExternal({ endpointVersionId: (await endpoint("vllm")).versionId, url: simRow.url!, region: "tr-ist" });
    const detect = await endpoint("onnxruntime");
    const triton = await caller(operator).cluster.registerExternal({ endpointVersionId: detect.versionId, url: simRow.url!, region: "eu-fra" });
    await expect.poll(() => Promise.all([state(ext.id), state(triton.id)]), { timeout: 10_000 }).toEqual(["ready", "ready"]);
    const extGroup = await groupOf(ext.id);
    expect(extGroup).toMatchObject({ targets: [new URL(simRow.url!).host], labels: { __metrics_path__: "/metrics", kule_driver: "external", kule_engine: "vllm", kule_region: "tr-ist" } });
    // vLLM does not export its maximum batch, and Kule did not start this server: left out, not guessed.
    expect(extGroup!.labels.kule_max_num_seqs).toBeUndefined();
    expect(await groupOf(triton.id)).toMatchObject({ targets: ["127.0.0.1:8002"], labels: { kule_endpoint: detect.slug, kule_engine: "onnxruntime", kule_driver: "external" } });

    // A stopped replica is no longer a target.
    await caller(operator).cluster.stopReplica({ replicaId: ext.id, drainSeconds: 0 });
    expect(await groupOf(ext.id)).toBeUndefined();
    await caller(operator).cluster.stopReplica({ replicaId: triton.id, drainSeconds: 0 });
    await caller(operator).cluster.stopReplica({ replicaId: sim.id, drainSeconds: 0 });
    expect(await groupOf(sim.id)).toBeUndefined();
  });

  it("takes the metrics address an operator gives for an external server", async () => {
    const detect = await endpoint("triton");
    const r = await caller(operator).cluster.registerExternal({ endpointVersionId: detect.versionId, url: "http://127.0.0.1:9", metricsUrl: "https://triton.example:9443/custom/metrics", region: "eu-fra" });
    const row = await testDb().replica.findUniqueOrThrow({ where: { id: r.id } });
    expect(row.metricsUrl).toBe("https://triton.example:9443/custom/metrics");
    // Nothing answers at :9, so it never turns ready and is never published.
    expect(await groupOf(r.id)).toBeUndefined();
    await testDb().replica.update({ where: { id: r.id }, data: { state: "ready" } });
    expect(await groupOf(r.id)).toMatchObject({ targets: ["triton.example:9443"], labels: { __scheme__: "https", __metrics_path__: "/custom/metrics" } });
    await caller(operator).cluster.stopReplica({ replicaId: r.id, drainSeconds: 0 });
  });
});
