/**
 * The reference cluster of the product brief, as the demo seeds it: LLM, vision and CPU pools in
 * Turkey and one GPU pool outside it (eu-fra), so the KVKK residency rule has somewhere to refuse.
 */
import { createHash } from "node:crypto";
import { ClusterDriverKind, type PrismaClient } from "../../server/db/generated/client.ts";

const GiB = 1024 ** 3;
const TiB = 1024 ** 4;

const CLUSTER_NAME = "kule-sim";

interface GpuSpec {
  modelName: string;
  memoryBytes: number;
}

interface PoolSpec {
  name: string;
  region: string;
  hostPrefix: string;
  nodeCount: number;
  cpuModel: string;
  cpuCores: number;
  memoryBytes: number;
  gpusPerNode: number;
  gpu?: GpuSpec;
}

export const H100: GpuSpec = { modelName: "NVIDIA H100 80GB HBM3", memoryBytes: 80 * GiB };
export const L40S: GpuSpec = { modelName: "NVIDIA L40S", memoryBytes: 48 * GiB };

const POOLS: PoolSpec[] = [
  {
    name: "llm-h100",
    region: "tr-ist",
    hostPrefix: "gpu-llm",
    nodeCount: 4,
    cpuModel: "2x AMD EPYC 9654",
    cpuCores: 192,
    memoryBytes: 1.5 * TiB,
    gpusPerNode: 8,
    gpu: H100,
  },
  {
    name: "vision-l40s",
    region: "tr-ist",
    hostPrefix: "gpu-vis",
    nodeCount: 4,
    cpuModel: "2x Intel Xeon Platinum 8480+",
    cpuCores: 112,
    memoryBytes: 512 * GiB,
    gpusPerNode: 4,
    gpu: L40S,
  },
  {
    name: "cpu-ank",
    region: "tr-ank",
    hostPrefix: "cpu-ank",
    nodeCount: 2,
    cpuModel: "2x AMD EPYC 9654",
    cpuCores: 192,
    memoryBytes: 768 * GiB,
    gpusPerNode: 0,
  },
  // Outside Turkey on purpose: KVKK tenants' calls must never land here.
  {
    name: "eu-fra",
    region: "eu-fra",
    hostPrefix: "gpu-fra",
    nodeCount: 1,
    cpuModel: "2x AMD EPYC 9654",
    cpuCores: 192,
    memoryBytes: 1.5 * TiB,
    gpusPerNode: 4,
    gpu: H100,
  },
];

/**
 * MIG layouts seeded on one LLM node so the MIG screen has something to show. Both are valid
 * per the H100 placement rules (facts.md): 3g+3g at slots 0 and 4 uses 6 of 7 compute slices,
 * 4g@0 + 2g@4 + 1g@6 uses all 7, and neither overlaps in memory slots.
 */
const MIG_LAYOUTS: Record<string, Record<number, { profile: string; startSlot: number }[]>> = {
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

/** A stable, NVIDIA-shaped GPU UUID, so re-seeding finds the same GPU instead of a new one. */
export function gpuUuid(hostname: string, index: number): string {
  const h = createHash("sha256").update(`kule-gpu:${hostname}:${index}`).digest("hex");
  return `GPU-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function hostname(pool: PoolSpec, n: number): string {
  return `${pool.hostPrefix}-${String(n).padStart(2, "0")}`;
}

/** The cluster, its pools, nodes and GPUs; returns each pool's id by name. */
export async function seedCluster(db: PrismaClient): Promise<Map<string, string>> {
  const cluster = await db.cluster.upsert({
    where: { name: CLUSTER_NAME },
    create: { name: CLUSTER_NAME, driver: ClusterDriverKind.sim },
    update: {},
  });

  const poolIds = new Map<string, string>();
  for (const spec of POOLS) {
    const pool = await db.nodePool.upsert({
      where: { clusterId_name: { clusterId: cluster.id, name: spec.name } },
      create: { clusterId: cluster.id, name: spec.name, region: spec.region },
      update: {},
    });
    poolIds.set(spec.name, pool.id);
    for (let n = 1; n <= spec.nodeCount; n++) {
      await seedNode(db, pool.id, spec, hostname(spec, n));
    }
  }
  return poolIds;
}

async function seedNode(db: PrismaClient, nodePoolId: string, spec: PoolSpec, host: string): Promise<void> {
  const node = await db.node.upsert({
    where: { hostname: host },
    create: {
      nodePoolId,
      hostname: host,
      region: spec.region,
      cpuModel: spec.cpuModel,
      cpuCores: spec.cpuCores,
      memoryBytes: BigInt(spec.memoryBytes),
    },
    update: {},
  });
  if (!spec.gpu) return;

  const existing = new Set(
    (await db.gpu.findMany({ where: { nodeId: node.id }, select: { index: true } })).map((g) => g.index),
  );
  for (let index = 0; index < spec.gpusPerNode; index++) {
    if (existing.has(index)) continue;
    // MIG instances are laid out only when the GPU itself is new: an existing GPU keeps
    // whatever layout the operator gave it.
    const mig = MIG_LAYOUTS[host]?.[index];
    await db.gpu.create({
      data: {
        nodeId: node.id,
        index,
        uuid: gpuUuid(host, index),
        modelName: spec.gpu.modelName,
        memoryBytes: BigInt(spec.gpu.memoryBytes),
        migEnabled: mig !== undefined,
        ...(mig ? { migInstances: { create: mig } } : {}),
      },
    });
  }
}
