import { describe, expect, it } from "vitest";
import { testDb, uid } from "../test/harness.ts";
import { syncTopology, applyDiscoveryEvent } from "./discovery.ts";
import type { Topology } from "./driver.ts";

const GiB = 2 ** 30;

function topology(name: string, hosts: string[], mig: { profile: string; startSlot: number }[] = []): Topology {
  return {
    cluster: name,
    pools: [
      {
        name: "h100",
        region: "tr-ist",
        nodes: hosts.map((hostname) => ({
          hostname,
          region: "tr-ist",
          status: "ready" as const,
          cordoned: false,
          cpuModel: "2x AMD EPYC 9654",
          cpuCores: 192,
          memoryBytes: 512 * GiB,
          gpus: [0, 1].map((index) => ({ index, uuid: `GPU-${hostname}-${index}`, modelName: "NVIDIA H100 80GB HBM3", memoryBytes: 80 * GiB, migEnabled: index === 1 && mig.length > 0, migInstances: index === 1 ? mig.map((m) => ({ ...m, memoryBytes: 40 * GiB })) : [], xid: 0 })),
        })),
      },
    ],
  };
}

describe("discovery writes what the cluster reports", () => {
  it("creates the cluster, its pools, nodes, GPUs and MIG instances; rediscovering the same writes nothing", async () => {
    const s = uid();
    const hosts = [`a-${s}`, `b-${s}`];
    const t = topology(`c-${s}`, hosts, [{ profile: "3g.40gb", startSlot: 0 }]);
    expect((await syncTopology(testDb(), t, "kubernetes")).written).toBeGreaterThan(0);
    expect((await syncTopology(testDb(), t, "kubernetes")).written).toBe(0);
    const nodes = await testDb().node.findMany({ where: { hostname: { in: hosts } }, include: { nodePool: { include: { cluster: true } }, gpus: { include: { migInstances: true }, orderBy: { index: "asc" } } } });
    expect(nodes).toHaveLength(2);
    expect(nodes[0]!.nodePool).toMatchObject({ name: "h100", region: "tr-ist", cluster: { name: `c-${s}`, driver: "kubernetes" } });
    expect(nodes[0]!.gpus.map((g) => [g.migEnabled, g.migInstances.map((m) => m.profile)])).toEqual([[false, []], [true, ["3g.40gb"]]]);
  });

  it("follows a changed layout and node state, and marks a node the cluster no longer reports down", async () => {
    const s = uid();
    const hosts = [`a-${s}`, `b-${s}`];
    await syncTopology(testDb(), topology(`c-${s}`, hosts), "sim");
    await applyDiscoveryEvent(testDb(), { type: "mig", hostname: hosts[0]!, gpuUuid: `GPU-${hosts[0]}-0`, layout: [{ profile: "7g.80gb", startSlot: 0 }], at: Date.now() });
    await applyDiscoveryEvent(testDb(), { type: "node", hostname: hosts[0]!, status: "ready", cordoned: true, mig: { config: "kule-x", state: "pending", since: Date.now(), reason: null }, at: Date.now() });
    const a = await testDb().node.findUniqueOrThrow({ where: { hostname: hosts[0] }, include: { gpus: { where: { index: 0 }, include: { migInstances: true } } } });
    expect(a).toMatchObject({ cordoned: true, migState: "pending", migConfig: "kule-x" });
    expect(a.gpus[0]!.migInstances.map((m) => m.profile)).toEqual(["7g.80gb"]);
    await syncTopology(testDb(), topology(`c-${s}`, [hosts[0]!]), "sim");
    expect((await testDb().node.findUniqueOrThrow({ where: { hostname: hosts[1] } })).status).toBe("down");
  });
});
