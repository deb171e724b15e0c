import { clusterDriver, type ClusterContext, type Drivers } from "./drivers.ts";
import { recordAudit } from "../audit/record.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import { supportsMig, validateMigLayout } from "./mig.ts";
import { heldGpus } from "./held-gpus.ts";
import { writeMigLayout } from "./discovery.ts";
import type { CordonInput, FaultInput, MigLayoutInput } from "./schemas.ts";
import type { SimFault } from "./sim-driver.ts";

const GiB = 2 ** 30;

/**
 * Which driver runs the cluster, whether it answers, and whether it is simulated: the simulator
 * itself, or the Kubernetes stand-in whose nodes the simulator plays. Faults can be injected
 * wherever the simulator answers.
 */
export function driverView(drivers: Drivers, simulatorAnswers: boolean) {
  const cluster = clusterDriver(drivers);
  if (cluster.kind === "sim") return { kind: "sim" as const, simulated: true, standIn: false, reachable: simulatorAnswers, url: cluster.baseUrl, faults: simulatorAnswers };
  return { kind: "kubernetes" as const, simulated: cluster.standIn, standIn: cluster.standIn, reachable: cluster.reachable, url: cluster.client.server, faults: simulatorAnswers };
}

/**
 * Lays out MIG instances on an idle GPU (checked against NVIDIA's rules first) and records it.
 * The simulator applies it at once; a Kubernetes node's MIG manager applies it later: the node
 * then shows the change pending, and discovery writes the layout once the manager reports success.
 */
export async function applyMigLayout(ctx: ClusterContext, input: MigLayoutInput) {
  const gpu = await ctx.db.gpu.findUnique({ where: { id: input.gpuId }, include: { node: true, migInstances: true } });
  if (!gpu) throw new NotFoundError("GPU");
  if (!supportsMig(gpu.modelName)) throw new InvalidInputError("layout", `${gpu.modelName} does not support MIG`);
  const problems = validateMigLayout(Number(gpu.memoryBytes) / GiB, input.layout);
  if (problems.length) throw new InvalidInputError("layout", problems.join("; "));
  // NCCL needs whole GPUs: partitioning one GPU of a group would break every rank of it.
  const group = (await heldGpus(ctx.db, { id: gpu.id })).whole.get(gpu.id);
  if (group?.group) throw new InvalidInputError("layout", `GPU ${gpu.index} of ${gpu.node.hostname} is held by replica ${group.replicaId} (${group.label}): a group takes whole GPUs; stop or move that replica first`);
  const busy = await ctx.db.replica.count({ where: { gpuId: gpu.id, state: { in: ["pending", "loading", "ready", "draining"] } } });
  if (busy) throw new InvalidInputError("layout", `GPU ${gpu.index} of ${gpu.node.hostname} runs ${busy} replica(s), and a layout change needs an idle GPU: preview moving its replicas (they move elsewhere first, then it is re-partitioned), or stop them first`);
  const progress = await clusterDriver(ctx.drivers).applyMigLayout(gpu.uuid, input.layout);
  const layoutText = input.layout.map((m) => `${m.profile}@${m.startSlot}`);
  if (progress) {
    return ctx.db.$transaction(async (tx) => {
      await tx.node.update({ where: { id: gpu.nodeId }, data: { migConfig: progress.config, migState: progress.state, migStateSince: progress.since ? new Date(progress.since) : new Date(), migReason: null } });
      await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "gpu.mig.apply", targetType: "gpu", targetId: gpu.id, before: gpu.migInstances.map((m) => `${m.profile}@${m.startSlot}`), after: { layout: layoutText, migConfig: progress.config, state: progress.state } });
      return tx.gpu.findUniqueOrThrow({ where: { id: gpu.id }, include: { migInstances: true } });
    });
  }
  return ctx.db.$transaction(async (tx) => {
    const after = await writeMigLayout(tx, gpu.id, input.layout.length > 0, input.layout);
    await recordAudit(tx, {
      actor: ctx.actor,
      ip: ctx.ip,
      action: "gpu.mig.apply",
      targetType: "gpu",
      targetId: gpu.id,
      before: gpu.migInstances.map((m) => `${m.profile}@${m.startSlot}`),
      after: input.layout.map((m) => `${m.profile}@${m.startSlot}`),
    });
    return after;
  });
}

export async function setCordon(ctx: ClusterContext, input: CordonInput) {
  const node = await ctx.db.node.findUnique({ where: { id: input.nodeId } });
  if (!node) throw new NotFoundError("Node");
  if (input.cordoned) await clusterDriver(ctx.drivers).cordon(node.hostname);
  else await clusterDriver(ctx.drivers).uncordon(node.hostname);
  return ctx.db.$transaction(async (tx) => {
    const after = await tx.node.update({ where: { id: node.id }, data: { cordoned: input.cordoned } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: input.cordoned ? "node.cordon" : "node.uncordon", targetType: "node", targetId: node.id, before: { cordoned: node.cordoned }, after: { cordoned: after.cordoned } });
    return after;
  });
}

/** Injects a simulator fault, named by Kule's ids; every injection is an audit event. */
export async function injectFault(ctx: ClusterContext, input: FaultInput) {
  let fault: SimFault;
  switch (input.type) {
    case "kill-replica":
    case "slow-replica": {
      const r = await ctx.db.replica.findUnique({ where: { id: input.replicaId } });
      // The simulator runs the engines of sim replicas and, behind the Kubernetes stand-in, of kubernetes ones.
      if (!r || r.driver === "external") throw new NotFoundError("Simulated replica");
      fault = input.type === "kill-replica" ? { type: input.type, replicaId: r.id } : { type: input.type, replicaId: r.id, factor: input.factor };
      break;
    }
    case "gpu-xid": {
      const g = await ctx.db.gpu.findUnique({ where: { id: input.gpuId } });
      if (!g) throw new NotFoundError("GPU");
      fault = { type: "gpu-xid", gpuUuid: g.uuid, xid: input.xid };
      break;
    }
    case "node-status": {
      const n = await ctx.db.node.findUnique({ where: { id: input.nodeId } });
      if (!n) throw new NotFoundError("Node");
      fault = { type: "node-status", hostname: n.hostname, status: input.status };
      await ctx.db.node.update({ where: { id: n.id }, data: { status: input.status } });
      break;
    }
    case "version-errors": {
      const v = await ctx.db.endpointVersion.findUnique({ where: { id: input.endpointVersionId } });
      if (!v) throw new NotFoundError("Endpoint version");
      fault = { type: "version-errors", versionId: v.id, share: input.share };
      break;
    }
  }
  await ctx.drivers.sim.injectFault(fault);
  await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: `fault.${input.type}`, targetType: "simulator", targetId: null, after: input });
  return { injected: input.type };
}

export async function clearFaults(ctx: ClusterContext) {
  await ctx.drivers.sim.clearFaults();
  await ctx.db.node.updateMany({ where: { status: "down" }, data: { status: "ready" } });
  await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "fault.clear", targetType: "simulator" });
  return { cleared: true };
}
