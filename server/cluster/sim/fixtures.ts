import type { Topology } from "../driver.ts";

const GiB = 2 ** 30;

/** A small cluster for tests: two H100 nodes in Istanbul (one GPU in MIG mode), one L40S node, one in Frankfurt, one CPU node. */
export function smallTopology(): Topology {
  const h100 = (host: string, i: number, mig: { profile: string; startSlot: number }[] = []) => ({
    index: i,
    uuid: `GPU-${host}-${i}`,
    modelName: "NVIDIA H100 80GB HBM3",
    memoryBytes: 80 * GiB,
    migEnabled: mig.length > 0,
    migInstances: mig.map((m) => ({ ...m, memoryBytes: (m.profile.startsWith("3g") ? 40 : m.profile.startsWith("1g") ? 10 : 20) * GiB })),
    xid: 0,
  });
  const facts = { cpuModel: "2x AMD EPYC 9654", cpuCores: 192, memoryBytes: 512 * GiB };
  return {
    cluster: "test-sim",
    pools: [
      {
        name: "llm",
        region: "tr-ist",
        nodes: [
          { hostname: "llm-1", region: "tr-ist", status: "ready", cordoned: false, ...facts, gpus: [h100("llm-1", 0), h100("llm-1", 1)] },
          { hostname: "llm-2", region: "tr-ist", status: "ready", cordoned: false, ...facts, gpus: [h100("llm-2", 0, [{ profile: "3g.40gb", startSlot: 0 }, { profile: "1g.10gb", startSlot: 4 }])] },
        ],
      },
      {
        name: "vision",
        region: "tr-ist",
        nodes: [{ hostname: "vis-1", region: "tr-ist", status: "ready", cordoned: false, ...facts, gpus: [{ index: 0, uuid: "GPU-vis-1-0", modelName: "NVIDIA L40S", memoryBytes: 48 * GiB, migEnabled: false, migInstances: [], xid: 0 }] }],
      },
      { name: "fra", region: "eu-fra", nodes: [{ hostname: "fra-1", region: "eu-fra", status: "ready", cordoned: false, ...facts, gpus: [h100("fra-1", 0), h100("fra-1", 1)] }] },
      { name: "cpu", region: "tr-ank", nodes: [{ hostname: "cpu-1", region: "tr-ank", status: "ready", cordoned: false, ...facts, gpus: [] }] },
    ],
  };
}

export const LLAMA_8B = { parameterCount: 8_030_000_000, weightBytes: 8_030_000_000 };
export const LLAMA_70B = { parameterCount: 70_600_000_000, weightBytes: 70_600_000_000 };
