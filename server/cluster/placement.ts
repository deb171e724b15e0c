import type { ActorContext } from "../auth/actor.ts";
import type { FreeDevicesInput } from "./schemas.ts";
import type { PrismaClient } from "../db/generated/client.ts";
import type { DbTx } from "../db/client.ts";
import { migInstanceMemoryBytes } from "./mig.ts";
import type { StartReplicaInput } from "./schemas.ts";
import { NotFoundError } from "../errors.ts";
import { regionRuleWhere } from "../shared/regions.ts";
import { configuredKvTokens, deviceText, fitsDevice, gib, groupSize, memoryNeed, needText, parallelismText, SINGLE, usableBytes, type MemoryNeed, type ModelMemory, type Parallelism } from "../shared/memory-rule.ts";
import { proposeParallelism, type GpuKind } from "../shared/parallelism.ts";
import { heldGpus } from "./held-gpus.ts";
import { chooseGroup, type NodeFree } from "./group-placement.ts";

export interface Placement {
  device: StartReplicaInput["device"];
  label: string;
  memoryBytes: number;
  region: string;
}

/** Where a version's replicas may go: its endpoint's pool, inside the endpoint's region constraint (KVKK). */
export interface PlacementScope {
  nodePoolId: string;
  poolName: string;
  regionConstraint: string | null;
}

/**
 * Devices of a pool with nothing running on them: whole GPUs and MIG instances, on nodes that are
 * ready, not cordoned and inside the region constraint. CPU pools offer their nodes. Those whose
 * usable memory holds `needBytes` (memory-rule.ts) come back smallest first, so big GPUs stay free
 * for big models; `needBytes` 0 lists every free device.
 */
export async function freeDevices(db: PrismaClient | DbTx, scope: Omit<PlacementScope, "poolName">, needBytes: number, exclude: { gpuIds?: string[] } = {}): Promise<Placement[]> {
  const nodes = await placeableNodes(db, scope);
  const held = await heldGpus(db, { node: { nodePoolId: scope.nodePoolId } });
  const out: Placement[] = [];
  for (const n of nodes) {
    if (n.gpus.length === 0) {
      out.push({ device: { kind: "cpu", nodeId: n.id }, label: `${n.hostname} (CPU)`, memoryBytes: Number(n.memoryBytes), region: n.region });
      continue;
    }
    for (const g of n.gpus) {
      if (exclude.gpuIds?.includes(g.id)) continue;
      if (!g.migEnabled) {
        if (!held.whole.has(g.id)) out.push({ device: { kind: "gpu", gpuId: g.id }, label: `${n.hostname} GPU ${g.index}`, memoryBytes: Number(g.memoryBytes), region: n.region });
        continue;
      }
      for (const m of g.migInstances) {
        if (held.whole.has(g.id) || held.mig.has(`${g.id}:${m.startSlot}`)) continue;
        out.push({ device: { kind: "mig", gpuId: g.id, startSlot: m.startSlot }, label: `${n.hostname} GPU ${g.index} ${m.profile}@${m.startSlot}`, memoryBytes: migInstanceMemoryBytes(Number(g.memoryBytes), m.profile), region: n.region });
      }
    }
  }
  return out.filter((p) => needBytes === 0 || fitsDevice(p.memoryBytes, needBytes)).sort((a, b) => a.memoryBytes - b.memoryBytes);
}

function placeableNodes(db: PrismaClient | DbTx, scope: Omit<PlacementScope, "poolName">) {
  return db.node.findMany({
    where: { nodePoolId: scope.nodePoolId, status: "ready", cordoned: false, ...regionRuleWhere(scope.regionConstraint) },
    orderBy: { hostname: "asc" },
    include: { gpus: { orderBy: { index: "asc" }, include: { migInstances: true } } },
  });
}

/** Nodes of the scope with their free whole GPUs (not in MIG mode): what a group replica can take. */
export async function freeNodes(db: PrismaClient | DbTx, scope: Omit<PlacementScope, "poolName">, exclude: { gpuIds?: string[] } = {}): Promise<NodeFree[]> {
  const [nodes, held] = await Promise.all([placeableNodes(db, scope), heldGpus(db, { node: { nodePoolId: scope.nodePoolId } })]);
  return nodes
    .filter((n) => n.gpus.length > 0)
    .map((n) => ({
      nodeId: n.id,
      hostname: n.hostname,
      region: n.region,
      gpuModel: n.gpus[0]!.modelName,
      free: n.gpus.filter((g) => !g.migEnabled && !held.whole.has(g.id) && !exclude.gpuIds?.includes(g.id)).map((g) => ({ id: g.id, index: g.index, memoryBytes: Number(g.memoryBytes), modelName: g.modelName, nvlinkDomain: g.nvlinkDomain })),
    }));
}

/** The memory rule's view of a model version: weights, KV per token from its card, the KV it is configured to hold. */
export function modelMemory(mv: { weightBytes: bigint; parameterCount: bigint; minGpuMemoryBytes: bigint; contextTokens: number | null; maxBatch: number | null; layers: number | null; kvHeads: number | null; headDim: number | null }, task: string): ModelMemory {
  const attention = mv.layers && mv.kvHeads && mv.headDim ? { layers: mv.layers, kvHeads: mv.kvHeads, headDim: mv.headDim } : null;
  return { weightBytes: Number(mv.weightBytes), parameterCount: Number(mv.parameterCount), task, declaredMinBytes: Number(mv.minGpuMemoryBytes), attention, kvTokens: configuredKvTokens(mv.contextTokens, mv.maxBatch) };
}

/** The GPU kind of a pool placement would use: its largest GPUs, how many a node has, how many nodes. */
export async function poolGpuKind(db: PrismaClient | DbTx, nodePoolId: string): Promise<GpuKind | null> {
  const gpus = await db.gpu.findMany({ where: { node: { nodePoolId } }, select: { nodeId: true, modelName: true, memoryBytes: true } });
  if (!gpus.length) return null;
  const largest = gpus.reduce((a, b) => (b.memoryBytes > a.memoryBytes ? b : a));
  const same = gpus.filter((g) => g.modelName === largest.modelName);
  const perNode = new Map<string, number>();
  for (const g of same) perNode.set(g.nodeId, (perNode.get(g.nodeId) ?? 0) + 1);
  return { modelName: largest.modelName, memoryBytes: Number(largest.memoryBytes), gpusPerNode: Math.max(...perNode.values()), nodes: perNode.size };
}

/**
 * How a version is split over GPUs: as its model version states, else one device when the
 * pool's largest GPU holds it, else the smallest tensor/pipeline split that does
 * (parallelism.ts). A model no split of the pool holds keeps 1 × 1 and is refused by the memory rule.
 */
export async function versionParallelism(db: PrismaClient | DbTx, nodePoolId: string, mv: { tensorParallel: number | null; pipelineParallel: number | null }, memory: ModelMemory): Promise<Parallelism> {
  if (mv.tensorParallel || mv.pipelineParallel) return { tensor: mv.tensorParallel ?? 1, pipeline: mv.pipelineParallel ?? 1 };
  const kind = await poolGpuKind(db, nodePoolId);
  if (!kind || fitsDevice(kind.memoryBytes, memoryNeed(memory).bytes)) return SINGLE;
  return proposeParallelism(memory, kind) ?? SINGLE;
}

const versionInclude = { endpoint: { include: { nodePool: true, model: true } }, modelVersion: true } as const;

/**
 * What placing a model version in an endpoint's pool needs: the memory per GPU, the split and the
 * scope. The split the endpoint chose for it at deploy (`chosen`, an endpoint version's) wins.
 */
export async function modelPlacement(
  db: PrismaClient | DbTx,
  endpoint: { nodePoolId: string; regionConstraint: string | null; nodePool: { name: string }; model: { task: string } },
  mv: Parameters<typeof modelMemory>[0] & { tensorParallel: number | null; pipelineParallel: number | null },
  chosen?: { tensorParallel: number | null; pipelineParallel: number | null } | null,
) {
  const memory = modelMemory(mv, endpoint.model.task);
  const parallelism = chosen?.tensorParallel || chosen?.pipelineParallel ? { tensor: chosen.tensorParallel ?? 1, pipeline: chosen.pipelineParallel ?? 1 } : await versionParallelism(db, endpoint.nodePoolId, mv, memory);
  const scope: PlacementScope = { nodePoolId: endpoint.nodePoolId, poolName: endpoint.nodePool.name, regionConstraint: endpoint.regionConstraint };
  return { need: memoryNeed(memory, parallelism), scope, memory };
}

/** A version's memory need and placement scope, from its rows. */
export async function versionPlacement(db: PrismaClient | DbTx, endpointVersionId: string) {
  const v = await db.endpointVersion.findUnique({ where: { id: endpointVersionId }, include: versionInclude });
  if (!v) throw new NotFoundError("Endpoint version");
  return { version: v, ...(await modelPlacement(db, v.endpoint, v.modelVersion, v)) };
}

/** Why a device was chosen, as the replica shows it. */
export function placementReason(chosen: Placement, need: MemoryNeed, scope: PlacementScope, by: "auto" | "hand", others: number): string {
  const where = `pool ${scope.poolName}${scope.regionConstraint ? `, region ${scope.regionConstraint}*` : ""}`;
  const how = by === "hand" ? "chosen by hand" : `the smallest free device of ${where} that holds it${others ? ` (${others} larger one(s) left free)` : ""}`;
  return `${deviceText(chosen.label, chosen.memoryBytes)} — needs ${needText(need)}; ${how}.`;
}

/** Why `n` replicas cannot be placed, in words an operator can act on. */
export function unplaceableReason(fitting: number, wanted: number, all: Placement[], need: MemoryNeed, scope: PlacementScope): string {
  const largest = all.reduce((m, d) => Math.max(m, d.memoryBytes), 0);
  const why =
    all.length === 0
      ? `every device of pool ${scope.poolName}${scope.regionConstraint ? ` in ${scope.regionConstraint}*` : ""} is taken or its nodes are down or cordoned`
      : `each replica needs ${needText(need)} of usable memory; pool ${scope.poolName} has ${fitting} free device(s) that large (the largest free one has ${gib(usableBytes(largest))} usable)`;
  return `only ${fitting} of ${wanted} replica(s) fit: ${why}`;
}

/** Chooses devices for `count` new replicas of a version, or says why they do not fit. */
export async function placeReplicas(db: PrismaClient | DbTx, endpointVersionId: string, count: number, exclude: { gpuIds?: string[] } = {}) {
  const { need, scope } = await versionPlacement(db, endpointVersionId);
  return placeNeed(db, need, scope, count, exclude);
}

/** Places `count` replicas of a known need: on single devices, or as groups when the need is split (groupPlacement). */
export async function placeNeed(db: PrismaClient | DbTx, need: MemoryNeed, scope: PlacementScope, count: number, exclude: { gpuIds?: string[] } = {}) {
  if (groupSize(need.parallelism) > 1) return placeGroups(db, need, scope, count, exclude);
  const all = await freeDevices(db, scope, 0, exclude);
  const fitting = all.filter((d) => fitsDevice(d.memoryBytes, need.bytes));
  const chosen = fitting.slice(0, count).map((d, i) => ({ ...d, reason: placementReason(d, need, scope, "auto", fitting.length - i - 1) }));
  return { chosen, need, scope, shortBy: Math.max(0, count - fitting.length), why: fitting.length < count ? unplaceableReason(fitting.length, count, all, need, scope) : null };
}

/**
 * Groups for `count` replicas split over `need.parallelism`, one after the other on what the
 * previous ones left (group-placement.ts), or the shortfall of the first that does not fit.
 */
async function placeGroups(db: PrismaClient | DbTx, need: MemoryNeed, scope: PlacementScope, count: number, exclude: { gpuIds?: string[] }) {
  let nodes = await freeNodes(db, scope, exclude);
  const chosen: (Placement & { reason: string })[] = [];
  let shortfall: string | null = null;
  while (chosen.length < count) {
    const c = chooseGroup(nodes, need.parallelism, need.bytes);
    if (!c.ok) {
      shortfall = c.shortfall;
      break;
    }
    const gpus = c.stages.flatMap((s) => s.gpus);
    const taken = new Set(gpus.map((g) => g.id));
    nodes = nodes.map((n) => ({ ...n, free: n.free.filter((g) => !taken.has(g.id)) }));
    const label = c.stages.map((s) => `${s.hostname} GPU ${s.gpus.map((g) => g.index).join("+")}`).join(", ");
    const placement: Placement = { device: { kind: "group", gpuIds: gpus.map((g) => g.id) }, label, memoryBytes: gpus[0]!.memoryBytes, region: c.stages[0]!.region };
    chosen.push({ ...placement, reason: groupPlacementReason(placement, need, scope, "auto") });
  }
  const why = shortfall === null ? null : `only ${chosen.length} of ${count} replica(s) fit: each is ${parallelismText(need.parallelism)} over ${groupSize(need.parallelism)} GPUs of ${needText(need)}; ${shortfall}`;
  return { chosen, need, scope, shortBy: count - chosen.length, why };
}

/** Why a group's GPUs were chosen, as the replica shows it. */
export function groupPlacementReason(chosen: Placement, need: MemoryNeed, scope: PlacementScope, by: "auto" | "hand"): string {
  const how = by === "hand" ? "chosen by hand" : `whole GPUs of pool ${scope.poolName}${scope.regionConstraint ? `, region ${scope.regionConstraint}*` : ""}, NVLink first, on the fullest node that holds the group`;
  return `${deviceText(`${chosen.label} (${parallelismText(need.parallelism)})`, chosen.memoryBytes)} — needs ${needText(need)}; ${how}.`;
}

/** Devices of the endpoint's pool a version's replica fits on (the memory rule), smallest first; for a group, the group Kule would choose. */
export async function devicesForVersion({ db }: ActorContext, { endpointVersionId }: FreeDevicesInput) {
  const { need, scope } = await versionPlacement(db, endpointVersionId);
  if (groupSize(need.parallelism) > 1) {
    const placed = await placeGroups(db, need, scope, 1, {});
    return { minMemoryBytes: need.bytes, parallelism: need.parallelism, devices: placed.chosen.map((p) => ({ device: p.device, label: p.label, memoryBytes: p.memoryBytes, region: p.region })), why: placed.why };
  }
  return { minMemoryBytes: need.bytes, parallelism: need.parallelism, devices: await freeDevices(db, scope, need.bytes), why: null };
}

