import { isInTurkey } from "@/server/shared/regions";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";

type Out = inferRouterOutputs<AppRouter>["cluster"];
export type ClusterSummary = Out["summary"];
export type NodeRow = Out["nodes"]["nodes"][number];
export type NodeListFilters = Omit<inferRouterInputs<AppRouter>["cluster"]["nodes"], "after" | "limit">;
export type NodeView = Out["node"];
export type GpuView = NodeView["gpus"][number];
export type ReplicaView = GpuView["replicas"][number];
export type HeatmapView = Out["heatmap"];

/** Every replica of a node: on the CPU, on whole GPUs and on MIG instances. */
export function replicasOfNode(n: NodeView): ReplicaView[] {
  return [...n.cpuReplicas, ...n.groups.map((g) => g.replica), ...n.gpus.flatMap((g) => [...g.replicas, ...g.migInstances.flatMap((m) => m.replicas)])];
}

/** Regions in Turkey hold data under KVKK: they get the KVKK badge. */
export const regionBadge = (region: string) => (isInTurkey(region) ? "badge badge-kvkk" : "badge");
