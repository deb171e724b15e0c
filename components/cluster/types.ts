import { isInTurkey } from "@/server/shared/regions";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";

export type ClusterView = inferRouterOutputs<AppRouter>["cluster"]["view"];
export type PoolView = ClusterView["pools"][number];
export type NodeView = PoolView["nodes"][number];
export type GpuView = NodeView["gpus"][number];
export type ReplicaView = GpuView["replicas"][number];

/** Every replica of a node: on the CPU, on whole GPUs and on MIG instances. */
export function replicasOfNode(n: NodeView): ReplicaView[] {
  return [...n.cpuReplicas, ...n.gpus.flatMap((g) => [...g.replicas, ...g.migInstances.flatMap((m) => m.replicas)])];
}

/** Regions in Turkey hold data under KVKK: they get the KVKK badge. */
export const regionBadge = (region: string) => (isInTurkey(region) ? "badge badge-kvkk" : "badge");
