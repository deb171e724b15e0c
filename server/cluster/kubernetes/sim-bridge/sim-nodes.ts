import { createHash } from "node:crypto";
import type { Topology, TopologyNode } from "../../driver.ts";
import { supportsMig } from "../../mig.ts";
import { gpuNode, type KubeObject } from "../stand-in/index.ts";
import { GPU, KULE } from "../kube-types.ts";
import { dumpMigParted, profileCounts, toMigParted, type MigPartedConfig } from "../mig-plan.ts";

const MiB = 2 ** 20;

/** The mig-parted entry a simulated node starts with, when some of its GPUs are in MIG mode. */
export function initialMigConfigName(n: TopologyNode): string | null {
  if (!n.gpus.some((g) => g.migEnabled)) return null;
  const hash = createHash("sha256").update(JSON.stringify(n.gpus.map((g) => g.migInstances.map((m) => `${m.profile}@${m.startSlot}`)))).digest("hex").slice(0, 8);
  return `kule-${n.hostname}-${hash}`;
}

/**
 * A simulated node as the GPU Operator would have labelled it: product, count, memory and MIG
 * capability from GPU feature discovery, whole GPUs and MIG instances as allocatable resources,
 * the pool label, the region, and a taint keeping non-GPU pods off GPU nodes.
 */
export function simNode(n: TopologyNode, pool: string, poolLabel: string): KubeObject {
  const gpu = n.gpus[0];
  const instances: Record<string, number> = {};
  for (const g of n.gpus) for (const [p, c] of Object.entries(profileCounts(g.migInstances))) instances[p] = (instances[p] ?? 0) + c;
  const migConfig = initialMigConfigName(n);
  const node = gpuNode({
    name: n.hostname,
    product: (gpu?.modelName ?? "none").replace(/ /g, "-"),
    gpuCount: n.gpus.length,
    gpuMemoryMiB: gpu ? Math.round(gpu.memoryBytes / MiB) : 0,
    region: n.region,
    migCapable: !!gpu && supportsMig(gpu.modelName),
    migStrategy: "mixed",
    migInstances: instances,
    wholeGpus: n.gpus.filter((g) => !g.migEnabled).length,
    cpu: String(n.cpuCores),
    memory: String(n.memoryBytes),
    ready: n.status === "ready",
    unschedulable: n.cordoned,
    taints: gpu ? [{ key: GPU.resource, value: "present", effect: "NoSchedule" }] : [],
    labels: { [poolLabel]: pool, ...(migConfig ? { [GPU.migConfig]: migConfig, [GPU.migState]: "success" } : {}) },
  });
  // Free text, so an annotation: label values cannot hold "2x AMD EPYC 9654".
  node.metadata.annotations = { ...node.metadata.annotations, [KULE.cpuModel]: n.cpuModel };
  if (!gpu) {
    // A CPU node: GPU feature discovery labels nothing there.
    node.metadata.labels = Object.fromEntries(Object.entries(node.metadata.labels ?? {}).filter(([k]) => !k.startsWith("nvidia.com/")));
    const status = node.status as { capacity: Record<string, string>; allocatable: Record<string, string> };
    for (const list of [status.capacity, status.allocatable]) delete list[GPU.resource];
  }
  return node;
}

/** The mig-parted ConfigMap's text holding every simulated node's starting layout. */
export function initialMigConfig(topology: Topology): string {
  const config: MigPartedConfig = { version: "v1", "mig-configs": { "all-disabled": [{ devices: "all", "mig-enabled": false }] } };
  for (const p of topology.pools) {
    for (const n of p.nodes) {
      const name = initialMigConfigName(n);
      if (name) config["mig-configs"][name] = toMigParted(n.gpus.map((g) => g.migInstances.map(({ profile, startSlot }) => ({ profile, startSlot }))));
    }
  }
  return dumpMigParted(config);
}
