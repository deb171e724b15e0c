import type { ActorContext } from "../auth/actor.ts";
import type { FreeDevicesInput } from "./schemas.ts";
import type { PrismaClient } from "../db/generated/client.ts";
import type { DbTx } from "../db/client.ts";
import { migInstanceMemoryBytes } from "./mig.ts";
import type { StartReplicaInput } from "./schemas.ts";
import { NotFoundError } from "../errors.ts";
import { regionRuleWhere } from "../shared/regions.ts";
import { deviceText, fitsDevice, gib, memoryNeed, needText, usableBytes } from "../shared/memory-rule.ts";

const ACTIVE = ["pending", "loading", "ready", "draining"] as const;

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
  const nodes = await db.node.findMany({
    where: { nodePoolId: scope.nodePoolId, status: "ready", cordoned: false, ...regionRuleWhere(scope.regionConstraint) },
    orderBy: { hostname: "asc" },
    include: { gpus: { orderBy: { index: "asc" }, include: { migInstances: true } }, replicas: { where: { state: { in: [...ACTIVE] } }, select: { gpuId: true, migStartSlot: true } } },
  });
  const out: Placement[] = [];
  for (const n of nodes) {
    if (n.gpus.length === 0) {
      out.push({ device: { kind: "cpu", nodeId: n.id }, label: `${n.hostname} (CPU)`, memoryBytes: Number(n.memoryBytes), region: n.region });
      continue;
    }
    for (const g of n.gpus) {
      if (exclude.gpuIds?.includes(g.id)) continue;
      const busy = n.replicas.filter((r) => r.gpuId === g.id);
      if (!g.migEnabled) {
        if (busy.length === 0) out.push({ device: { kind: "gpu", gpuId: g.id }, label: `${n.hostname} GPU ${g.index}`, memoryBytes: Number(g.memoryBytes), region: n.region });
        continue;
      }
      for (const m of g.migInstances) {
        if (busy.some((r) => r.migStartSlot === m.startSlot)) continue;
        out.push({ device: { kind: "mig", gpuId: g.id, startSlot: m.startSlot }, label: `${n.hostname} GPU ${g.index} ${m.profile}@${m.startSlot}`, memoryBytes: migInstanceMemoryBytes(Number(g.memoryBytes), m.profile), region: n.region });
      }
    }
  }
  return out.filter((p) => needBytes === 0 || fitsDevice(p.memoryBytes, needBytes)).sort((a, b) => a.memoryBytes - b.memoryBytes);
}

const versionInclude = { endpoint: { include: { nodePool: true, model: true } }, modelVersion: true } as const;

/** A version's memory need and placement scope, from its rows. */
export async function versionPlacement(db: PrismaClient | DbTx, endpointVersionId: string) {
  const v = await db.endpointVersion.findUnique({ where: { id: endpointVersionId }, include: versionInclude });
  if (!v) throw new NotFoundError("Endpoint version");
  const need = memoryNeed({ weightBytes: Number(v.modelVersion.weightBytes), parameterCount: Number(v.modelVersion.parameterCount), task: v.endpoint.model.task, declaredMinBytes: Number(v.modelVersion.minGpuMemoryBytes) });
  const scope: PlacementScope = { nodePoolId: v.endpoint.nodePoolId, poolName: v.endpoint.nodePool.name, regionConstraint: v.endpoint.regionConstraint };
  return { version: v, need, scope };
}

/** Why a device was chosen, as the replica shows it. */
export function placementReason(chosen: Placement, need: ReturnType<typeof memoryNeed>, scope: PlacementScope, by: "auto" | "hand", others: number): string {
  const where = `pool ${scope.poolName}${scope.regionConstraint ? `, region ${scope.regionConstraint}*` : ""}`;
  const how = by === "hand" ? "chosen by hand" : `the smallest free device of ${where} that holds it${others ? ` (${others} larger one(s) left free)` : ""}`;
  return `${deviceText(chosen.label, chosen.memoryBytes)} — needs ${needText(need)}; ${how}.`;
}

/** Why `n` replicas cannot be placed, in words an operator can act on. */
export function unplaceableReason(fitting: number, wanted: number, all: Placement[], need: ReturnType<typeof memoryNeed>, scope: PlacementScope): string {
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
  const all = await freeDevices(db, scope, 0, exclude);
  const fitting = all.filter((d) => fitsDevice(d.memoryBytes, need.bytes));
  const chosen = fitting.slice(0, count).map((d, i) => ({ ...d, reason: placementReason(d, need, scope, "auto", fitting.length - i - 1) }));
  return { chosen, need, scope, shortBy: Math.max(0, count - fitting.length), why: fitting.length < count ? unplaceableReason(fitting.length, count, all, need, scope) : null };
}

/** Devices of the endpoint's pool a version's replica fits on (the memory rule), smallest first. */
export async function devicesForVersion({ db }: ActorContext, { endpointVersionId }: FreeDevicesInput) {
  const { need, scope } = await versionPlacement(db, endpointVersionId);
  return { minMemoryBytes: need.bytes, devices: await freeDevices(db, scope, need.bytes) };
}

