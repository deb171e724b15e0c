/**
 * The reference cluster of the product brief, which the simulator plays by default: LLM, vision
 * and CPU pools in Turkey and one GPU pool outside it (eu-fra), so the KVKK residency rule has
 * somewhere to refuse. Kule learns it through the driver's discovery, as it would a real cluster.
 */
import type { MigInstanceSpec } from "../mig.ts";
import { migInstanceMemoryBytes } from "../mig.ts";
import { gpuUuid } from "../gpu-uuid.ts";
import type { Topology, TopologyNode } from "../driver.ts";

const GiB = 1024 ** 3;
const TiB = 1024 ** 4;

export interface PoolSpec {
  name: string;
  region: string;
  hostPrefix: string;
  nodeCount: number;
  cpuModel: string;
  cpuCores: number;
  memoryBytes: number;
  gpusPerNode: number;
  gpu?: { modelName: string; memoryBytes: number };
}

/** The boards the simulator joins by NVSwitch (as dcgm-exporter reports NVLink for them). */
export const NVLINK_BOARD = /H100|H200|A100|B200/;

export const H100 = { modelName: "NVIDIA H100 80GB HBM3", memoryBytes: 80 * GiB };
export const L40S = { modelName: "NVIDIA L40S", memoryBytes: 48 * GiB };

export const REFERENCE_POOLS: PoolSpec[] = [
  { name: "llm-h100", region: "tr-ist", hostPrefix: "gpu-llm", nodeCount: 4, cpuModel: "2x AMD EPYC 9654", cpuCores: 192, memoryBytes: 1.5 * TiB, gpusPerNode: 8, gpu: H100 },
  { name: "vision-l40s", region: "tr-ist", hostPrefix: "gpu-vis", nodeCount: 4, cpuModel: "2x Intel Xeon Platinum 8480+", cpuCores: 112, memoryBytes: 512 * GiB, gpusPerNode: 4, gpu: L40S },
  { name: "cpu-ank", region: "tr-ank", hostPrefix: "cpu-ank", nodeCount: 2, cpuModel: "2x AMD EPYC 9654", cpuCores: 192, memoryBytes: 768 * GiB, gpusPerNode: 0 },
  // Outside Turkey on purpose: KVKK tenants' calls must never land here.
  { name: "eu-fra", region: "eu-fra", hostPrefix: "gpu-fra", nodeCount: 1, cpuModel: "2x AMD EPYC 9654", cpuCores: 192, memoryBytes: 1.5 * TiB, gpusPerNode: 4, gpu: H100 },
];

/**
 * MIG layouts on one LLM node so the MIG screen has something to show. Both follow the H100
 * placement rules (facts.md) and the order a MIG manager lays instances out in (largest first,
 * lowest slot), so the Kubernetes driver can express them too.
 */
export const REFERENCE_MIG: Record<string, Record<number, MigInstanceSpec[]>> = {
  "gpu-llm-04": {
    6: [
      { profile: "3g.40gb", startSlot: 0 },
      { profile: "3g.40gb", startSlot: 4 },
    ],
    7: [
      { profile: "4g.40gb", startSlot: 0 },
      { profile: "2g.20gb", startSlot: 4 },
      { profile: "1g.10gb", startSlot: 6 },
    ],
  },
};

/** A fleet of pools as a topology: `<prefix>-NN` hosts, GPUs named by gpuUuid, MIG layouts by host and index. */
export function topologyOf(cluster: string, pools: PoolSpec[], mig: Record<string, Record<number, MigInstanceSpec[]>> = {}): Topology {
  return {
    cluster,
    pools: pools.map((p) => ({
      name: p.name,
      region: p.region,
      nodes: Array.from({ length: p.nodeCount }, (_, i): TopologyNode => {
        const hostname = `${p.hostPrefix}-${String(i + 1).padStart(2, "0")}`;
        return {
          hostname,
          region: p.region,
          status: "ready",
          cordoned: false,
          cpuModel: p.cpuModel,
          cpuCores: p.cpuCores,
          memoryBytes: p.memoryBytes,
          gpus: p.gpu
            ? Array.from({ length: p.gpusPerNode }, (_, index) => {
                const layout = mig[hostname]?.[index] ?? [];
                return {
                  index,
                  uuid: gpuUuid(hostname, index),
                  modelName: p.gpu!.modelName,
                  memoryBytes: p.gpu!.memoryBytes,
                  migEnabled: layout.length > 0,
                  migInstances: layout.map((m) => ({ ...m, memoryBytes: migInstanceMemoryBytes(p.gpu!.memoryBytes, m.profile) })),
                  xid: 0,
                  // SXM boards share one NVSwitch fabric; PCIe cards (L40S) have no NVLink.
                  nvlinkDomain: NVLINK_BOARD.test(p.gpu!.modelName) ? 0 : null,
                };
              })
            : [],
        };
      }),
    })),
  };
}

export function referenceCluster(): Topology {
  return topologyOf("kule-sim", REFERENCE_POOLS, REFERENCE_MIG);
}
