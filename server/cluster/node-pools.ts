import type { ActorContext } from "../auth/actor.ts";

/** Pools with their size, for placing endpoints and for the overview. */
export async function listNodePools({ db }: ActorContext) {
  const pools = await db.nodePool.findMany({
    orderBy: [{ region: "asc" }, { name: "asc" }],
    include: { nodes: { select: { status: true, cordoned: true, gpus: { select: { modelName: true, memoryBytes: true } } } } },
  });
  return pools.map((p) => ({
    id: p.id,
    name: p.name,
    region: p.region,
    nodes: p.nodes.length,
    readyNodes: p.nodes.filter((n) => n.status === "ready" && !n.cordoned).length,
    gpus: p.nodes.reduce((s, n) => s + n.gpus.length, 0),
    gpuModels: [...new Set(p.nodes.flatMap((n) => n.gpus.map((g) => g.modelName)))],
  }));
}
