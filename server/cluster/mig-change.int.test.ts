import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor, makeModelWithVersions, testDb, testDrivers, uid } from "../test/harness.ts";
import { startClusterSync } from "./sync.ts";
import { MigChangeWorker } from "./mig-change.ts";
import type { Actor } from "../auth/actor.ts";

let operator: Actor;
let stopSync: () => void;
const ORIGINAL = [{ profile: "3g.40gb", startSlot: 0 }, { profile: "1g.10gb", startSlot: 4 }];

async function smallEndpoint() {
  const db = testDb();
  const nodePool = await db.nodePool.findFirstOrThrow({ where: { name: "llm", cluster: { name: "test-sim" } } });
  const model = await makeModelWithVersions(["1.0"]);
  await db.modelVersion.update({ where: { id: model.versions[0]!.id }, data: { parameterCount: 1_000_000_000n, weightBytes: 1_000_000_000n, minGpuMemoryBytes: 1_200_000_000n } });
  const e = await db.endpoint.create({
    data: { name: `Mig ${uid()}`, slug: `mig-${uid()}`, modelId: model.id, engine: "vllm", nodePoolId: nodePool.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 2000, versions: { create: { modelVersionId: model.versions[0]!.id, weight: 100, state: "pending" } } },
    include: { versions: true },
  });
  return e.versions[0]!.id;
}

const gpu = (hostname: string, index: number) => testDb().gpu.findFirstOrThrow({ where: { index, node: { hostname } } });

beforeAll(async () => {
  operator = await makeActor("operator");
  stopSync = startClusterSync(testDb(), testDrivers());
});
afterAll(() => stopSync());

describe("MIG changes of a busy GPU", () => {
  it("previews what moves where, refuses what cannot be placed, then applies as audited steps without stopping a replica before its stand-in serves", async () => {
    const versionId = await smallEndpoint();
    const g = await gpu("llm-2", 0);
    const op = caller(operator);
    const a = await op.cluster.startReplica({ endpointVersionId: versionId, device: { kind: "mig", gpuId: g.id, startSlot: 0 } });
    const b = await op.cluster.startReplica({ endpointVersionId: versionId, device: { kind: "mig", gpuId: g.id, startSlot: 4 } });
    await expect.poll(async () => (await testDb().replica.count({ where: { id: { in: [a.id, b.id] }, state: "ready" } })), { timeout: 15_000 }).toBe(2);
    const change = { changes: [{ gpuId: g.id, layout: [{ profile: "7g.80gb", startSlot: 0 }] }] };

    // With both whole GPUs of the pool taken, the two replicas have nowhere to go: refused, saying why.
    const [g0, g1] = [await gpu("llm-1", 0), await gpu("llm-1", 1)];
    const blockers = await Promise.all([g0, g1].map((x) => testDb().replica.create({ data: { endpointVersionId: versionId, driver: "sim", nodeId: x.nodeId, gpuId: x.id, region: "tr-ist", state: "ready" } })));
    const blocked = await op.cluster.previewMigChange(change);
    expect(blocked.refused).toMatch(/cannot be placed elsewhere: needs .* no free device of pool llm outside the GPUs being changed/);
    await expect(op.cluster.startMigChange(change)).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/changes: .*cannot be placed elsewhere/) });
    // A Turkish reader is told the same in Turkish, sizes written 1,2 GiB.
    const trOp = caller(operator, { locale: "tr" });
    const blockedTr = await trOp.cluster.previewMigChange(change);
    expect(blockedTr.refused).toMatch(/^llm-2 GPU 0 \dg\.\d+gb@\d üzerindeki mig-\S+ 1\.0 başka bir yere yerleştirilemiyor: \d+,\d GiB .* gerekiyor ve llm havuzunda/);
    expect(blockedTr.capacityMissing.text).toMatch(/^1 GPU, 80,0 GiB, yeniden bölümlenirken hizmet dışı; 2 replika/);
    await testDb().replica.deleteMany({ where: { id: { in: blockers.map((x) => x.id) } } });

    const plan = await op.cluster.previewMigChange({ ...change, moveBack: true });
    expect(plan.refused).toBeNull();
    expect(plan.gpus[0]).toMatchObject({ label: "llm-2 GPU 0", before: ["3g.40gb@0", "1g.10gb@4"], after: ["7g.80gb@0"] });
    expect(plan.moves.map((m) => m.to?.label).sort()).toEqual(["llm-1 GPU 0", "llm-1 GPU 1"]);
    expect(plan.moves.filter((m) => m.back).map((m) => m.back!.label)).toEqual(["llm-2 GPU 0 7g.80gb@0"]);
    expect(plan.capacityMissing.text).toMatch(/^1 GPU\(s\), 80\.0 GiB, out of service while re-partitioned/);

    const started = await op.cluster.startMigChange(change);
    const worker = new MigChangeWorker({ db: testDb(), drivers: testDrivers() });
    // Each tick, the replicas being moved away still serve until their stand-ins are ready.
    for (let i = 0; i < 120; i++) {
      await worker.tick();
      const c = await testDb().migChange.findUniqueOrThrow({ where: { id: started.id } });
      if (c.state !== "running") break;
      if (c.step <= 1) expect(await testDb().replica.count({ where: { id: { in: [a.id, b.id] }, state: "ready" } })).toBe(2);
      await new Promise((r) => setTimeout(r, 250));
    }
    const done = (await op.cluster.migChanges()).find((c) => c.id === started.id)!;
    expect(done.state).toBe("done");
    expect(done.log.map((l) => l.text.split(":")[0])).toEqual(["applied", "start elsewhere", "wait ready", "shift traffic and drain", "re-partition"]);
    // A Turkish reader gets the steps and the log in Turkish, each step's line still under its step's name.
    const tr = (await caller(operator, { locale: "tr" }).cluster.migChanges()).find((c) => c.id === started.id)!;
    expect(tr.steps).toEqual(["başka yerde başlat", "hazır olmalarını bekle", "trafiği aktar ve boşalt", "MIG bölümlemesini değiştir"]);
    expect(tr.log.map((l) => l.text.split(":")[0])).toEqual(["uygulandı", ...tr.steps]);
    expect(tr.log.map((l) => l.text).join(" ")).not.toMatch(/replica|traffic|ready/);
    expect((await testDb().migInstance.findMany({ where: { gpuId: g.id } })).map((m) => `${m.profile}@${m.startSlot}`)).toEqual(["7g.80gb@0"]);
    expect(await testDb().replica.count({ where: { id: { in: [a.id, b.id] }, state: "stopped" } })).toBe(2);
    const stand = await testDb().replica.findMany({ where: { endpointVersionId: versionId, state: "ready" } });
    expect(stand.map((r) => r.gpuId).sort()).toEqual([g0.id, g1.id].sort());
    expect(await testDb().auditEvent.count({ where: { action: "gpu.mig.change.step", targetId: started.id } })).toBe(4);

    for (const r of stand) await op.cluster.stopReplica({ replicaId: r.id });
    await op.cluster.applyMig({ gpuId: g.id, layout: ORIGINAL });
  });
});
