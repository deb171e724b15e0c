import type { Prisma } from "../db/generated/client.ts";
import type { ClusterContext } from "./drivers.ts";
import { migStateView } from "./node-detail.ts";
import type { Locale } from "../shared/i18n/locales.ts";
import type { ReplicaCounts } from "./fleet-summary.ts";
import type { NodeListInput } from "./schemas.ts";

/** The filters of the node list as one query: each narrows, none needs the whole fleet read. */
function nodeWhere(input: NodeListInput, faultHosts: string[]): Prisma.NodeWhereInput {
  const and: Prisma.NodeWhereInput[] = [];
  if (input.search) and.push({ hostname: { contains: input.search, mode: "insensitive" } });
  if (input.poolId) and.push({ nodePoolId: input.poolId });
  if (input.region) and.push({ region: input.region });
  if (input.gpuModel) and.push({ gpus: { some: { modelName: input.gpuModel } } });
  if (input.migProfile) and.push({ gpus: { some: { migInstances: { some: { profile: input.migProfile } } } } });
  switch (input.state) {
    case "ready":
    case "not_ready":
    case "down":
      and.push({ status: input.state });
      break;
    case "cordoned":
      and.push({ cordoned: true });
      break;
    case "mig_pending":
      and.push({ migState: { in: ["pending", "rebooting"] } });
      break;
    case "mig_failed":
      and.push({ migState: "failed" });
      break;
  }
  // A fault: the node is not ready, a replica on it failed, its MIG change failed, or the simulator injected one (XID, down).
  if (input.faultsOnly) and.push({ OR: [{ status: { not: "ready" } }, { migState: "failed" }, { replicas: { some: { state: "failed" } } }, { hostname: { in: faultHosts } }] });
  return { AND: and };
}

/**
 * A page of the node list, in hostname order after `after`: each node's pool, state, GPUs,
 * replicas by state, MIG manager state and XIDs, with the count of nodes the filters match.
 */
export async function listNodes({ db, drivers, locale }: ClusterContext & { locale?: Locale }, input: NodeListInput) {
  const faults = await drivers.sim.faults().catch(() => null);
  const xidHosts = new Map<string, number>();
  for (const x of faults?.xids ?? []) xidHosts.set(x.hostname, (xidHosts.get(x.hostname) ?? 0) + 1);
  const where = nodeWhere(input, [...xidHosts.keys(), ...(faults?.downNodes ?? [])]);
  const limit = input.limit ?? 25;
  const [total, rows] = await Promise.all([
    db.node.count({ where }),
    db.node.findMany({
      where: { AND: [where, ...(input.after ? [{ hostname: { gt: input.after } }] : [])] },
      orderBy: { hostname: "asc" },
      take: limit + 1,
      include: { nodePool: { select: { name: true } }, gpus: { select: { modelName: true, migEnabled: true } } },
    }),
  ]);
  const page = rows.slice(0, limit);
  const counts = await db.replica.groupBy({ by: ["nodeId", "state"], where: { nodeId: { in: page.map((r) => r.id) }, state: { not: "stopped" } }, _count: true });
  const replicas = new Map<string, ReplicaCounts>();
  for (const c of counts) {
    const r = replicas.get(c.nodeId!) ?? { pending: 0, loading: 0, ready: 0, draining: 0, failed: 0 };
    r[c.state as keyof ReplicaCounts] = c._count;
    replicas.set(c.nodeId!, r);
  }
  return {
    total,
    next: rows.length > limit ? page.at(-1)!.hostname : null,
    nodes: page.map((r) => ({
      id: r.id,
      hostname: r.hostname,
      pool: r.nodePool.name,
      region: r.region,
      status: r.status,
      cordoned: r.cordoned,
      cpuModel: r.cpuModel,
      cpuCores: r.cpuCores,
      gpus: r.gpus.length,
      gpuModels: [...new Set(r.gpus.map((g) => g.modelName))],
      migGpus: r.gpus.filter((g) => g.migEnabled).length,
      replicas: replicas.get(r.id) ?? { pending: 0, loading: 0, ready: 0, draining: 0, failed: 0 },
      mig: migStateView(r, locale),
      xids: xidHosts.get(r.hostname) ?? 0,
    })),
  };
}
