import type { PrismaClient } from "../db/generated/client.ts";
import type { DbTx } from "../db/client.ts";
import type { Device } from "./driver.ts";
import type { StartReplicaInput } from "./schemas.ts";
import { InvalidInputError } from "../errors.ts";
import { migInstanceMemoryBytes } from "./mig.ts";
import { deviceText, fitsDevice, groupSize, needText, parallelismText, type MemoryNeed } from "../shared/memory-rule.ts";
import { heldGpus } from "./held-gpus.ts";

export interface ResolvedDevice {
  device: Device;
  label: string;
  /** Memory of each device the replica holds. */
  memoryBytes: number;
  nodeId: string;
  /** Every GPU it holds, in rank order (empty on a CPU node). */
  gpuIds: string[];
  migStartSlot: number | null;
  region: string;
}

type Version = { endpoint: { nodePoolId: string; nodePool: { name: string } }; modelVersion: { version: string } };

/**
 * Checks a device chosen for a replica against the pool, the hardware and the memory rule, and
 * names it as the driver and the replica row need it. A group must be whole GPUs, the same
 * number on each node (one pipeline stage per node), free, and match the version's split.
 */
export async function resolveDevice(db: PrismaClient | DbTx, v: Version, input: StartReplicaInput["device"], need: MemoryNeed): Promise<ResolvedDevice> {
  const pool = v.endpoint.nodePool.name;
  if (input.kind === "cpu") {
    const node = await db.node.findUnique({ where: { id: input.nodeId } });
    if (!node || node.nodePoolId !== v.endpoint.nodePoolId) throw new InvalidInputError("device", `choose a node of the ${pool} pool`);
    return { device: { kind: "cpu", hostname: node.hostname }, label: `${node.hostname} (CPU)`, memoryBytes: Number(node.memoryBytes), nodeId: node.id, gpuIds: [], migStartSlot: null, region: node.region };
  }
  if (input.kind === "group") return resolveGroup(db, v, input.gpuIds, need);
  if (groupSize(need.parallelism) > 1) throw new InvalidInputError("device", `version ${v.modelVersion.version} is served as ${parallelismText(need.parallelism)}: choose ${groupSize(need.parallelism)} whole GPUs`);
  const gpu = await db.gpu.findUnique({ where: { id: input.gpuId }, include: { node: true, migInstances: true } });
  if (!gpu || gpu.node.nodePoolId !== v.endpoint.nodePoolId) throw new InvalidInputError("device", `choose a GPU of the ${pool} pool`);
  let resolved: ResolvedDevice;
  if (input.kind === "mig") {
    const slot = input.startSlot;
    const m = gpu.migInstances.find((x) => x.startSlot === slot);
    if (!m) throw new InvalidInputError("device", `GPU ${gpu.index} of ${gpu.node.hostname} has no MIG instance at slot ${slot}`);
    resolved = { device: { kind: "mig", gpuUuid: gpu.uuid, startSlot: slot }, label: `${gpu.node.hostname} GPU ${gpu.index} ${m.profile}@${slot}`, memoryBytes: migInstanceMemoryBytes(Number(gpu.memoryBytes), m.profile), nodeId: gpu.nodeId, gpuIds: [gpu.id], migStartSlot: slot, region: gpu.node.region };
  } else {
    if (gpu.migEnabled) throw new InvalidInputError("device", `GPU ${gpu.index} of ${gpu.node.hostname} is in MIG mode: choose one of its instances`);
    resolved = { device: { kind: "gpu", gpuUuid: gpu.uuid }, label: `${gpu.node.hostname} GPU ${gpu.index}`, memoryBytes: Number(gpu.memoryBytes), nodeId: gpu.nodeId, gpuIds: [gpu.id], migStartSlot: null, region: gpu.node.region };
  }
  // A group's GPU is never shared: its engine took the memory of every member.
  const holder = (await heldGpus(db, { id: gpu.id })).whole.get(gpu.id);
  if (holder?.group) throw new InvalidInputError("device", `${resolved.label} is held by replica ${holder.replicaId} (${holder.label}): choose another device`);
  // The engine's own rule (memory-rule.ts): a device that cannot hold it would fail out of memory at start.
  if (!fitsDevice(resolved.memoryBytes, need.bytes)) throw new InvalidInputError("device", `${deviceText(resolved.label, resolved.memoryBytes)} — too small: version ${v.modelVersion.version} needs ${needText(need)}. Choose a larger device or a MIG instance with more memory.`);
  return resolved;
}

async function resolveGroup(db: PrismaClient | DbTx, v: Version, gpuIds: string[], need: MemoryNeed): Promise<ResolvedDevice> {
  const rows = await db.gpu.findMany({ where: { id: { in: gpuIds } }, include: { node: true } });
  const gpus = gpuIds.map((id) => rows.find((g) => g.id === id));
  if (gpus.some((g) => !g || g.node.nodePoolId !== v.endpoint.nodePoolId)) throw new InvalidInputError("device", `choose GPUs of the ${v.endpoint.nodePool.name} pool`);
  const all = gpus as NonNullable<(typeof gpus)[number]>[];
  const mig = all.find((g) => g.migEnabled);
  // NCCL's all-reduce runs between whole devices; a MIG instance cannot join a group.
  if (mig) throw new InvalidInputError("device", `GPU ${mig.index} of ${mig.node.hostname} is in MIG mode: a tensor-parallel group takes whole GPUs`);
  if (new Set(all.map((g) => g.modelName)).size > 1) throw new InvalidInputError("device", "a group's GPUs must be of one kind");
  // Stages in the order given: each node's GPUs together, every stage as wide as the first.
  const stages: (typeof all)[] = [];
  for (const g of all) {
    const last = stages[stages.length - 1];
    if (last && last[0]!.nodeId === g.nodeId) last.push(g);
    else if (stages.some((s) => s[0]!.nodeId === g.nodeId)) throw new InvalidInputError("device", `list each node's GPUs together (${g.node.hostname} appears twice)`);
    else stages.push([g]);
  }
  const parallelism = { tensor: stages[0]!.length, pipeline: stages.length };
  if (stages.some((s) => s.length !== parallelism.tensor)) throw new InvalidInputError("device", "every node of a pipeline must give the group the same number of GPUs");
  if (parallelism.tensor !== need.parallelism.tensor || parallelism.pipeline !== need.parallelism.pipeline)
    throw new InvalidInputError("device", `version ${v.modelVersion.version} is served as ${parallelismText(need.parallelism)} (${groupSize(need.parallelism)} GPUs); these GPUs make ${parallelismText(parallelism)}`);
  // KVKK: the region rule is checked on the replica's one region, so a pipeline may not straddle two.
  if (new Set(all.map((g) => g.node.region)).size > 1) throw new InvalidInputError("device", "a pipeline's nodes must be in one region");
  const held = await heldGpus(db, { id: { in: gpuIds } });
  const busy = all.find((g) => held.whole.has(g.id));
  if (busy) throw new InvalidInputError("device", `GPU ${busy.index} of ${busy.node.hostname} is held by replica ${held.whole.get(busy.id)!.replicaId} (${held.whole.get(busy.id)!.label})`);
  const label = stages.map((s) => `${s[0]!.node.hostname} GPU ${s.map((g) => g.index).join("+")}`).join(", ");
  const memoryBytes = Math.min(...all.map((g) => Number(g.memoryBytes)));
  if (!fitsDevice(memoryBytes, need.bytes)) throw new InvalidInputError("device", `${deviceText(label, memoryBytes)} — too small: version ${v.modelVersion.version} needs ${needText(need)}`);
  return {
    device: { kind: "group", gpuUuids: all.map((g) => g.uuid), tensorParallel: parallelism.tensor, pipelineParallel: parallelism.pipeline },
    label,
    memoryBytes,
    nodeId: all[0]!.nodeId,
    gpuIds,
    migStartSlot: null,
    region: all[0]!.node.region,
  };
}
