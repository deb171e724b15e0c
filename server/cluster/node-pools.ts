import type { ActorContext } from "../auth/actor.ts";

/** Pools with their size, for placing endpoints and for the overview: counted by PostgreSQL, a few rows per pool. */
export async function listNodePools({ db }: ActorContext) {
  const [pools, nodes, ready, gpus] = await Promise.all([
    db.nodePool.findMany({ orderBy: [{ region: "asc" }, { name: "asc" }] }),
    db.node.groupBy({ by: ["nodePoolId"], _count: true }),
    db.node.groupBy({ by: ["nodePoolId"], where: { status: "ready", cordoned: false }, _count: true }),
    db.$queryRaw<{ pool: string; model: string; count: bigint }[]>`
      SELECT n."nodePoolId" AS pool, g."modelName" AS model, count(*) AS count FROM "Gpu" g JOIN "Node" n ON n.id = g."nodeId" GROUP BY 1, 2 ORDER BY 2`,
  ]);
  const count = (rows: { nodePoolId: string; _count: number }[], id: string) => rows.find((r) => r.nodePoolId === id)?._count ?? 0;
  return pools.map((p) => {
    const models = gpus.filter((g) => g.pool === p.id);
    return {
      id: p.id,
      name: p.name,
      region: p.region,
      nodes: count(nodes, p.id),
      readyNodes: count(ready, p.id),
      gpus: models.reduce((s, m) => s + Number(m.count), 0),
      gpuModels: models.map((m) => m.model),
    };
  });
}
