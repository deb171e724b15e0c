import type { PrismaClient } from "../../db/generated/client.ts";
import type { Topology } from "../driver.ts";
import { migInstanceMemoryBytes } from "../mig.ts";

/** The cluster the simulator plays: the seeded one in Kule's database. */
export async function topologyFromDb(db: PrismaClient, clusterName: string): Promise<Topology> {
  const cluster = await db.cluster.findUnique({
    where: { name: clusterName },
    include: { nodePools: { include: { nodes: { include: { gpus: { include: { migInstances: true }, orderBy: { index: "asc" } } }, orderBy: { hostname: "asc" } } } } },
  });
  if (!cluster) throw new Error(`No cluster named ${clusterName} in the database: run \`npm run db:seed\` first.`);
  return {
    pools: cluster.nodePools.map((p) => ({
      name: p.name,
      region: p.region,
      nodes: p.nodes.map((n) => ({
        hostname: n.hostname,
        region: n.region,
        status: n.status,
        cordoned: n.cordoned,
        gpus: n.gpus.map((g) => ({
          index: g.index,
          uuid: g.uuid,
          modelName: g.modelName,
          memoryBytes: Number(g.memoryBytes),
          migEnabled: g.migEnabled,
          migInstances: g.migInstances
            .sort((a, b) => a.startSlot - b.startSlot)
            .map((m) => ({ profile: m.profile, startSlot: m.startSlot, memoryBytes: migInstanceMemoryBytes(Number(g.memoryBytes), m.profile) })),
          xid: 0,
        })),
      })),
    })),
  };
}
