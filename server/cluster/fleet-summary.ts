import type { ClusterContext } from "./drivers.ts";
import { driverView } from "./operations.ts";
import { migStateView } from "./node-detail.ts";
import type { Locale } from "../shared/i18n/locales.ts";

type Count = bigint | number;
const n = (x: Count | null | undefined) => Number(x ?? 0);

export interface ReplicaCounts {
  pending: number;
  loading: number;
  ready: number;
  draining: number;
  failed: number;
}
const noReplicas = (): ReplicaCounts => ({ pending: 0, loading: 0, ready: 0, draining: 0, failed: 0 });

/**
 * The cluster page's overview: per pool, its nodes, GPUs and replicas counted by PostgreSQL (a
 * row per pool, whatever the fleet's size), the values the filters offer, the MIG changes under
 * way or failed, the driver and the simulator's faults. Nodes themselves come a page at a time
 * (node-list.ts) and in full only when opened (node-detail.ts).
 */
export async function clusterSummary({ db, drivers, locale }: ClusterContext & { locale?: Locale }) {
  const [pools, nodeCounts, gpuCounts, replicaCounts, models, profiles, regions, migNodes, faults] = await Promise.all([
    db.nodePool.findMany({ orderBy: [{ region: "desc" }, { name: "asc" }], include: { cluster: { select: { name: true } } } }),
    db.$queryRaw<{ pool: string; nodes: Count; ready: Count; cordoned: Count }[]>`
      SELECT "nodePoolId" AS pool, count(*) AS nodes, count(*) FILTER (WHERE status = 'ready') AS ready, count(*) FILTER (WHERE cordoned) AS cordoned
      FROM "Node" GROUP BY "nodePoolId"`,
    db.$queryRaw<{ pool: string; gpus: Count; mig: Count }[]>`
      SELECT n."nodePoolId" AS pool, count(*) AS gpus, count(*) FILTER (WHERE g."migEnabled") AS mig
      FROM "Gpu" g JOIN "Node" n ON n.id = g."nodeId" GROUP BY n."nodePoolId"`,
    db.$queryRaw<{ pool: string; state: keyof ReplicaCounts; count: Count }[]>`
      SELECT n."nodePoolId" AS pool, r.state::text AS state, count(*) AS count
      FROM "Replica" r JOIN "Node" n ON n.id = r."nodeId" WHERE r.state <> 'stopped' GROUP BY n."nodePoolId", r.state`,
    db.gpu.findMany({ distinct: ["modelName"], select: { modelName: true }, orderBy: { modelName: "asc" } }),
    db.migInstance.findMany({ distinct: ["profile"], select: { profile: true }, orderBy: { profile: "asc" } }),
    db.node.findMany({ distinct: ["region"], select: { region: true }, orderBy: { region: "asc" } }),
    db.node.findMany({ where: { migState: { in: ["pending", "rebooting", "failed"] } }, orderBy: { hostname: "asc" }, take: 50 }),
    drivers.sim.faults().catch(() => null),
  ]);
  // The few replicas the simulator was told to slow, by name, for the faults panel.
  const slow = await db.replica.findMany({
    where: { id: { in: (faults?.slowReplicas ?? []).map((s) => s.id) } },
    select: { id: true, node: { select: { hostname: true } }, endpointVersion: { select: { endpoint: { select: { slug: true } }, modelVersion: { select: { version: true } } } } },
  });
  const byPool = <T extends { pool: string }>(rows: T[]) => new Map(rows.map((r) => [r.pool, r]));
  const nodes = byPool(nodeCounts);
  const gpus = byPool(gpuCounts);
  const replicas = new Map<string, ReplicaCounts>();
  for (const r of replicaCounts) {
    const c = replicas.get(r.pool) ?? noReplicas();
    if (r.state in c) c[r.state] = n(r.count);
    replicas.set(r.pool, c);
  }
  const poolViews = pools.map((p) => ({
    id: p.id,
    name: p.name,
    region: p.region,
    cluster: p.cluster.name,
    nodes: n(nodes.get(p.id)?.nodes),
    readyNodes: n(nodes.get(p.id)?.ready),
    cordonedNodes: n(nodes.get(p.id)?.cordoned),
    gpus: n(gpus.get(p.id)?.gpus),
    migGpus: n(gpus.get(p.id)?.mig),
    replicas: replicas.get(p.id) ?? noReplicas(),
  }));
  const sum = (f: (p: (typeof poolViews)[number]) => number) => poolViews.reduce((s, p) => s + f(p), 0);
  return {
    driver: driverView(drivers, faults !== null),
    faults,
    totals: {
      nodes: sum((p) => p.nodes),
      readyNodes: sum((p) => p.readyNodes),
      gpus: sum((p) => p.gpus),
      replicas: Object.fromEntries((Object.keys(noReplicas()) as (keyof ReplicaCounts)[]).map((k) => [k, sum((p) => p.replicas[k])])) as unknown as ReplicaCounts,
    },
    pools: poolViews,
    facets: { gpuModels: models.map((m) => m.modelName), migProfiles: profiles.map((p) => p.profile), regions: regions.map((r) => r.region) },
    migChanges: migNodes.map((x) => ({ hostname: x.hostname, ...migStateView(x, locale)! })),
    faultReplicas: Object.fromEntries(slow.map((r) => [r.id, `${r.endpointVersion.endpoint.slug} ${r.endpointVersion.modelVersion.version} on ${r.node?.hostname ?? "?"}`])),
  };
}
