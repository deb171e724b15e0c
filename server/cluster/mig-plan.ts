import type { PrismaClient } from "../db/generated/client.ts";
import type { DbTx } from "../db/client.ts";
import { NotFoundError } from "../errors.ts";
import { heldGpus } from "./held-gpus.ts";
import { freeDevices, placementReason, versionPlacement, type Placement } from "./placement.ts";
import { migInstanceMemoryBytes, supportsMig, validateMigLayout, type MigInstanceSpec } from "./mig.ts";
import { fitsDevice, gib, needText, type memoryNeed } from "../shared/memory-rule.ts";
import { inRegionRule } from "../shared/regions.ts";
import type { StartReplicaInput } from "./schemas.ts";

const GiB = 2 ** 30;
const ACTIVE = ["pending", "loading", "ready"] as const;

export interface MigChangeSpec {
  gpuId: string;
  layout: MigInstanceSpec[];
}

export interface PlannedMove {
  replicaId: string;
  endpointVersionId: string;
  endpoint: string;
  version: string;
  from: string;
  /** Where it runs meanwhile; null: nowhere fits (the plan is refused). */
  to: { device: StartReplicaInput["device"]; label: string; reason: string } | null;
  why: string | null;
  /** Where it can go back to on the new layout, when asked; null: nowhere on it fits. */
  back: { device: StartReplicaInput["device"]; label: string; reason: string } | null;
}

export interface MigPlan {
  gpus: { gpuId: string; label: string; before: string[]; after: string[]; problems: string[] }[];
  moves: PlannedMove[];
  /** Out of service between the drain and the end of the re-partition. */
  capacityMissing: { gpus: number; memoryBytes: number; text: string };
  /** Why the plan cannot be applied; null: it can. */
  refused: string | null;
}

const key = (d: StartReplicaInput["device"]) => (d.kind === "cpu" ? `cpu:${d.nodeId}` : d.kind === "gpu" ? `gpu:${d.gpuId}` : d.kind === "group" ? `group:${d.gpuIds.join(",")}` : `mig:${d.gpuId}:${d.startSlot}`);

/**
 * What a MIG change of one or several GPUs would do, before anything is touched: the replicas on
 * them stop, each moving first to a free device of its pool that holds it by the memory rule
 * (placement.ts) — never to another GPU being changed —, and where each could move back on the
 * new layout. One replica that fits nowhere refuses the whole plan, saying why.
 */
export async function planMigChange(db: PrismaClient | DbTx, changes: MigChangeSpec[]): Promise<MigPlan> {
  const gpuIds = changes.map((c) => c.gpuId);
  const gpus = await db.gpu.findMany({
    where: { id: { in: gpuIds } },
    include: { node: true, migInstances: { orderBy: { startSlot: "asc" } }, replicas: { where: { state: { in: [...ACTIVE] } }, orderBy: { createdAt: "asc" }, include: { endpointVersion: { include: { endpoint: true, modelVersion: true } } } } },
  });
  const out: MigPlan = { gpus: [], moves: [], capacityMissing: { gpus: 0, memoryBytes: 0, text: "" }, refused: null };
  const taken = new Set<string>();
  const problems: string[] = [];
  // New-layout instances, offered for the way back.
  const backOffer: (Placement & { nodePoolId: string })[] = [];
  const held = await heldGpus(db, { id: { in: gpuIds } });
  for (const c of changes) {
    const g = gpus.find((x) => x.id === c.gpuId);
    if (!g) throw new NotFoundError("GPU");
    const label = `${g.node.hostname} GPU ${g.index}`;
    const memoryGb = Number(g.memoryBytes) / GiB;
    const errs = supportsMig(g.modelName) ? validateMigLayout(memoryGb, c.layout) : [`${g.modelName} does not support MIG`];
    // A group's engine spans whole GPUs: it cannot move piecemeal onto MIG instances.
    const group = held.whole.get(g.id);
    if (group?.group) errs.push(`GPU ${g.index} of ${g.node.hostname} is held by replica ${group.replicaId} (${group.label}): a group takes whole GPUs; stop or move that replica first`);
    out.gpus.push({ gpuId: g.id, label, before: g.migInstances.map((m) => `${m.profile}@${m.startSlot}`), after: c.layout.map((m) => `${m.profile}@${m.startSlot}`), problems: errs });
    if (errs.length) problems.push(`${label}: ${errs.join("; ")}`);
    out.capacityMissing.gpus++;
    out.capacityMissing.memoryBytes += Number(g.memoryBytes);
    for (const m of c.layout) {
      const device = { kind: "mig" as const, gpuId: g.id, startSlot: m.startSlot };
      backOffer.push({ device, label: `${label} ${m.profile}@${m.startSlot}`, memoryBytes: migInstanceMemoryBytes(Number(g.memoryBytes), m.profile), region: g.node.region, nodePoolId: g.node.nodePoolId });
    }
    if (!c.layout.length) backOffer.push({ device: { kind: "gpu", gpuId: g.id }, label, memoryBytes: Number(g.memoryBytes), region: g.node.region, nodePoolId: g.node.nodePoolId });
  }
  const replicas = gpus.flatMap((g) => g.replicas.map((r) => ({ r, g })));
  // The largest first: they have the fewest places to go.
  const needs = await Promise.all(replicas.map(async ({ r }) => ({ id: r.id, ...(await versionPlacement(db, r.endpointVersionId)) })));
  replicas.sort((a, b) => needs.find((n) => n.id === b.r.id)!.need.bytes - needs.find((n) => n.id === a.r.id)!.need.bytes);
  const backTaken = new Set<string>();
  for (const { r, g } of replicas) {
    const { need, scope } = needs.find((n) => n.id === r.id)!;
    // Named as free devices are ("node GPU 6 3g.40gb@0"): no word to translate.
    const slot = r.migStartSlot === null ? null : `${g.migInstances.find((m) => m.startSlot === r.migStartSlot)?.profile ?? "MIG"}@${r.migStartSlot}`;
    const from = `${g.node.hostname} GPU ${g.index}${slot ? ` ${slot}` : ""}`;
    const all = await freeDevices(db, scope, 0, { gpuIds });
    const fitting = all.filter((d) => !taken.has(key(d.device)) && fitsDevice(d.memoryBytes, need.bytes));
    const target = fitting[0] ?? null;
    if (target) taken.add(key(target.device));
    const back = backOffer.find((d) => d.nodePoolId === scope.nodePoolId && !backTaken.has(key(d.device)) && fitsDevice(d.memoryBytes, need.bytes) && inRegionRule(d.region, scope.regionConstraint)) ?? null;
    if (back) backTaken.add(key(back.device));
    const largest = all.filter((d) => !taken.has(key(d.device))).reduce((m, d) => Math.max(m, d.memoryBytes), 0);
    const why = target ? null : noDeviceWhy(need, scope.poolName, largest);
    out.moves.push({
      replicaId: r.id,
      endpointVersionId: r.endpointVersionId,
      endpoint: r.endpointVersion.endpoint.slug,
      version: r.endpointVersion.modelVersion.version,
      from,
      to: target ? { device: target.device, label: target.label, reason: placementReason(target, need, scope, "auto", fitting.length - 1) } : null,
      why,
      back: back ? { device: back.device, label: back.label, reason: placementReason(back, need, scope, "auto", 0) } : null,
    });
  }
  const stuck = out.moves.filter((m) => !m.to);
  if (stuck.length) problems.push(...stuck.map((m) => `${m.endpoint} ${m.version} on ${m.from} cannot be placed elsewhere: ${m.why}`));
  out.refused = problems.length ? problems.join(". ") : null;
  out.capacityMissing.text = capacityMissingText(out.capacityMissing.gpus, out.capacityMissing.memoryBytes, out.moves.length);
  return out;
}

/** Why a replica of a GPU being changed has nowhere to go meanwhile. */
export function noDeviceWhy(need: ReturnType<typeof memoryNeed>, poolName: string, largestFreeBytes: number): string {
  return `needs ${needText(need)} and no free device of pool ${poolName} outside the GPUs being changed holds it${largestFreeBytes ? ` (the largest free one has ${gib(largestFreeBytes)})` : " (none is free)"}`;
}

export function capacityMissingText(gpus: number, memoryBytes: number, moves: number): string {
  return `${gpus} GPU(s), ${gib(memoryBytes)}, out of service while re-partitioned; ${moves} replica(s) keep serving from where they move first, so no version loses a replica meanwhile`;
}
