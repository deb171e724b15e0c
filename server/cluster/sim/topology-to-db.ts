import type { PrismaClient } from "../../db/generated/client.ts";
import type { Topology } from "../driver.ts";

/** Writes a topology into the database as a cluster (tests use it to mirror the simulator they start). */
export async function topologyToDb(db: PrismaClient, clusterName: string, topology: Topology) {
  const cluster = await db.cluster.create({ data: { name: clusterName, driver: "sim" } });
  for (const pool of topology.pools) {
    const p = await db.nodePool.create({ data: { clusterId: cluster.id, name: pool.name, region: pool.region } });
    for (const n of pool.nodes) {
      await db.node.create({
        data: {
          nodePoolId: p.id,
          hostname: n.hostname,
          region: n.region,
          cpuModel: "2x AMD EPYC 9654",
          cpuCores: 192,
          memoryBytes: 512n * 2n ** 30n,
          status: n.status,
          cordoned: n.cordoned,
          gpus: {
            create: n.gpus.map((g) => ({
              index: g.index,
              uuid: g.uuid,
              modelName: g.modelName,
              memoryBytes: BigInt(g.memoryBytes),
              migEnabled: g.migEnabled,
              migInstances: { create: g.migInstances.map((m) => ({ profile: m.profile, startSlot: m.startSlot })) },
            })),
          },
        },
      });
    }
  }
  return cluster;
}
