import type { MigProgress, Topology, TopologyGpu, TopologyNode } from "../driver.ts";
import { migInstanceMemoryBytes, type MigInstanceSpec } from "../mig.ts";
import { gpuUuid } from "../gpu-uuid.ts";
import { parseQuantity } from "./quantity.ts";
import { GPU, KULE, type NodeObj } from "./kube-types.ts";
import { fromMigParted, inferLayouts, type MigDeviceGroup } from "./mig-plan.ts";

const MiB = 2 ** 20;

export interface NodeReading {
  poolLabel: string;
  /** mig-parted entries by config name, from the ConfigMaps the MIG manager reads. */
  migConfigs: ReadonlyMap<string, MigDeviceGroup[]>;
  /** Why a node's last MIG change failed, when the driver found out. */
  migFailure?: (node: string) => string | null;
}

/** GPU feature discovery spells the product with dashes (`NVIDIA-H100-80GB-HBM3`); nvidia-smi with spaces. */
export const gpuModelName = (product: string) => product.replace(/-/g, " ");

export function nodeStatus(node: NodeObj): TopologyNode["status"] {
  const ready = node.status?.conditions?.find((c) => c.type === "Ready");
  return ready?.status === "True" ? "ready" : ready?.status === "False" ? "not_ready" : "down";
}

export function nodeRegion(node: NodeObj): string {
  return node.metadata?.labels?.[GPU.region] ?? "unknown";
}

export function nodePool(node: NodeObj, poolLabel: string): string {
  return node.metadata?.labels?.[poolLabel] ?? "default";
}

export function migProgress(node: NodeObj, reading: NodeReading): MigProgress | null {
  const labels = node.metadata?.labels ?? {};
  const config = labels[GPU.migConfig];
  if (!config) return null;
  const raw = labels[GPU.migState];
  const state = raw === "pending" || raw === "rebooting" || raw === "failed" || raw === "success" ? raw : "pending";
  const since = Number(node.metadata?.annotations?.[KULE.migRequestedAt]) || null;
  return { config, state, since, reason: state === "failed" ? (reading.migFailure?.(node.metadata!.name!) ?? null) : null };
}

/**
 * SXM boards (HGX/DGX: GPU feature discovery names them "…-SXM…" or "…-HBM3…"; H200 and B200
 * other than the NVL cards are HGX boards too) join all their GPUs by NVSwitch. PCIe cards have
 * no NVLink unless bridged, which only the operator knows: the node's `kule.io/nvlink-domains`
 * label says so, and wins over the guess.
 */
const NVSWITCH_BOARD = /SXM|HBM3|H200|B200/i;

export function nvlinkDomains(labels: Record<string, string>, gpuCount: number): (number | null)[] {
  const stated = labels[KULE.nvlinkDomains];
  if (stated) {
    const parts = stated.split(".");
    return Array.from({ length: gpuCount }, (_, i) => (/^\d+$/.test(parts[i] ?? "") ? Number(parts[i]) : null));
  }
  const product = labels[GPU.product] ?? "";
  const board = NVSWITCH_BOARD.test(product) && !/PCIE|NVL\b/i.test(product);
  return Array.from({ length: gpuCount }, () => (board ? 0 : null));
}

/**
 * Each GPU's MIG layout: the applied mig-parted config when the node's manager reports success
 * (or has not reported at all, as for a preset label), else inferred from the MIG resources the
 * device plugin advertises.
 */
function layoutsOf(node: NodeObj, gpuCount: number, gpuMemoryGb: number, reading: NodeReading): MigInstanceSpec[][] {
  const labels = node.metadata?.labels ?? {};
  const config = labels[GPU.migConfig];
  const groups = config ? reading.migConfigs.get(config) : undefined;
  if (groups && (labels[GPU.migState] ?? "success") === "success") return fromMigParted(groups, gpuCount, gpuMemoryGb);
  const allocatable = node.status?.allocatable ?? {};
  const instances = Object.fromEntries(
    Object.entries(allocatable)
      .map(([k, v]) => [/^nvidia\.com\/mig-(.+)$/.exec(k)?.[1], parseQuantity(v)] as const)
      .filter((e): e is [string, number] => !!e[0] && e[1] > 0),
  );
  const whole = parseQuantity(allocatable[GPU.resource] ?? "0") || 0;
  return Object.keys(instances).length ? inferLayouts(gpuCount, whole, instances, gpuMemoryGb) : Array.from({ length: gpuCount }, () => []);
}

/** A Node as Kule's topology sees it: its pool, region, health, cordon and GPUs from the GPU Operator's labels. */
export function topologyNode(node: NodeObj, reading: NodeReading): TopologyNode {
  const name = node.metadata!.name!;
  const labels = node.metadata?.labels ?? {};
  const capacity = node.status?.capacity ?? {};
  const gpuCount = Number(labels[GPU.count] ?? 0) || parseQuantity(capacity[GPU.resource] ?? "0") || 0;
  const memoryBytes = Number(labels[GPU.memory] ?? 0) * MiB;
  const modelName = gpuModelName(labels[GPU.product] ?? "NVIDIA GPU");
  const layouts = layoutsOf(node, gpuCount, memoryBytes / 2 ** 30, reading);
  const nvlink = nvlinkDomains(labels, gpuCount);
  const gpus: TopologyGpu[] = Array.from({ length: gpuCount }, (_, index) => ({
    index,
    uuid: gpuUuid(name, index),
    modelName,
    memoryBytes,
    migEnabled: layouts[index]!.length > 0,
    migInstances: layouts[index]!.map((m) => ({ ...m, memoryBytes: migInstanceMemoryBytes(memoryBytes, m.profile) })),
    xid: 0,
    nvlinkDomain: nvlink[index]!,
  }));
  return {
    hostname: name,
    region: nodeRegion(node),
    status: nodeStatus(node),
    cordoned: node.spec?.unschedulable === true,
    cpuModel: node.metadata?.annotations?.[KULE.cpuModel] ?? `${node.status?.nodeInfo?.architecture ?? "unknown"} CPU`,
    cpuCores: Math.round(parseQuantity(capacity.cpu ?? "0") || 0),
    memoryBytes: parseQuantity(capacity.memory ?? "0") || 0,
    gpus,
    mig: migProgress(node, reading),
  };
}

/** Nodes grouped into pools by the pool label; a pool's region is its first node's. */
export function topologyOf(cluster: string, nodes: Iterable<NodeObj>, reading: NodeReading): Topology {
  const pools = new Map<string, Topology["pools"][number]>();
  const sorted = [...nodes].sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!));
  for (const node of sorted) {
    const name = nodePool(node, reading.poolLabel);
    const pool = pools.get(name) ?? { name, region: nodeRegion(node), nodes: [] };
    pools.set(name, pool);
    pool.nodes.push(topologyNode(node, reading));
  }
  return { cluster, pools: [...pools.values()] };
}
