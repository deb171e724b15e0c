import type { SimCluster } from "../../sim/cluster.ts";
import { startStandIn, type StandIn, type StandInOptions } from "../stand-in/index.ts";

import { SimKubelet } from "./sim-kubelet.ts";
import { SimMigApplier } from "./sim-mig-applier.ts";
import { initialMigConfig, simNode } from "./sim-nodes.ts";

export interface SimulatedKubernetesOptions extends Pick<StandInOptions, "port" | "eventWindow" | "bookmarkIntervalMs" | "expiredWatchAs" | "kserve"> {
  /** The namespace Kule's driver puts replicas in (created here, as Kule's manifests create it). */
  namespace?: string;
  poolLabel?: string;
  migConfigMap?: { namespace: string; name: string; key: string };
  /** How long a MIG change takes on a node. */
  migDelayMs?: number;
  /** Real milliseconds per second of the kubelet's crash-loop back-off. */
  msPerBackoffSecond?: number;
}

/**
 * A Kubernetes API server (Kule's stand-in) whose cluster is the simulator's: one Node per
 * simulated node, labelled as the GPU Operator labels them; its kubelet starts simulated engines
 * (SimKubelet) and its MIG manager re-partitions simulated GPUs (SimMigApplier). Taking a node
 * down in the simulator turns its Node NotReady and its pods unready, as the node lifecycle
 * controller does; bringing it back restarts the engines that died.
 */
export async function startSimulatedKubernetes(cluster: SimCluster, o: SimulatedKubernetesOptions = {}): Promise<StandIn & { kubelet: SimKubelet; stopFollowing: () => void }> {
  const namespace = o.namespace ?? "kule-replicas";
  const poolLabel = o.poolLabel ?? "kule.io/node-pool";
  const cm = o.migConfigMap ?? { namespace: "gpu-operator", name: "kule-mig-parted-config", key: "config.yaml" };
  const kubelet = new SimKubelet(cluster, { msPerBackoffSecond: o.msPerBackoffSecond });
  const standIn = await startStandIn({
    port: o.port,
    eventWindow: o.eventWindow,
    bookmarkIntervalMs: o.bookmarkIntervalMs,
    expiredWatchAs: o.expiredWatchAs,
    kserve: o.kserve ?? true,
    kubelet,
    migApplier: new SimMigApplier(cluster, { ...cm, delayMs: o.migDelayMs ?? 1000 }),
  });
  const api = standIn.api;
  for (const ns of new Set([namespace, cm.namespace])) api.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
  const topology = cluster.topology();
  api.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: cm.name, namespace: cm.namespace }, data: { [cm.key]: initialMigConfig(topology) } });
  for (const p of topology.pools) for (const n of p.nodes) api.create(simNode(n, p.name, poolLabel));

  const stopFollowing = cluster.subscribe((e) => {
    if (e.type !== "node") return;
    const down = e.status === "down";
    api.mutate("Node", undefined, e.hostname, (node) => {
      const status = (node as { status?: { conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[] } }).status;
      const ready = status?.conditions?.find((c) => c.type === "Ready");
      if (!ready) return;
      Object.assign(ready, down ? { status: "Unknown", reason: "NodeStatusUnknown", message: "Kubelet stopped posting node status." } : { status: "True", reason: "KubeletReady", message: "kubelet is posting ready status" }, { lastTransitionTime: new Date().toISOString() });
    }, { status: true });
    if (down) markPodsNotReady(standIn, e.hostname);
    else kubelet.nodeUp(e.hostname);
  });
  return Object.assign(standIn, { kubelet, stopFollowing });
}

/** What the node lifecycle controller does to the pods of a node that stopped posting status. */
function markPodsNotReady(standIn: StandIn, hostname: string): void {
  for (const pod of standIn.api.list<{ metadata: { namespace?: string; name?: string } }>("Pod", { fieldSelector: `spec.nodeName=${hostname}` })) {
    standIn.api.mutate("Pod", pod.metadata.namespace, pod.metadata.name!, (p) => {
      const status = (p as { status?: { conditions?: { type: string; status: string; reason?: string }[] } }).status;
      for (const c of status?.conditions ?? []) if (c.type === "Ready" || c.type === "ContainersReady") Object.assign(c, { status: "False", reason: "NodeNotReady" });
    }, { status: true });
  }
}

