import type { ClusterContext } from "./drivers.ts";
import type { PrometheusClient } from "../metrics/prometheus-client.ts";
import { gpuFleet } from "../metrics/gpu-fleet.ts";

/**
 * The fleet heat map: every GPU's utilization from dcgm-exporter, laid out by pool and node. The
 * one view of the whole fleet, so it carries a GPU's id and one number and nothing else; a cell opens the
 * GPU's charts (by its UUID), a node's name opens the node. Without Prometheus the layout is still there (grey).
 */
export async function clusterHeatmap({ db, prometheus }: Pick<ClusterContext, "db"> & { prometheus: PrometheusClient }) {
  const [pools, fleet] = await Promise.all([
    db.nodePool.findMany({
      orderBy: [{ region: "desc" }, { name: "asc" }],
      select: { id: true, name: true, region: true, nodes: { orderBy: { hostname: "asc" }, select: { hostname: true, status: true, cordoned: true, gpus: { orderBy: { index: "asc" }, select: { uuid: true } } } } },
    }),
    gpuFleet({ prometheus }),
  ]);
  const util = (uuid: string) => (fleet.available ? (fleet.gpus[uuid]?.utilPct ?? null) : null);
  return {
    metrics: fleet.available ? { available: true as const } : { available: false as const, reason: fleet.reason },
    pools: pools
      .filter((p) => p.nodes.some((n) => n.gpus.length))
      .map((p) => ({
        id: p.id,
        name: p.name,
        region: p.region,
        nodes: p.nodes.filter((n) => n.gpus.length).map((n) => ({ hostname: n.hostname, status: n.status, cordoned: n.cordoned, uuids: n.gpus.map((g) => g.uuid), util: n.gpus.map((g) => util(g.uuid)) })),
      })),
  };
}
