import type { DbTx } from "../db/client.ts";
import type { ClusterContext } from "../cluster/drivers.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.ts";
import { loadEndpoint, type EndpointDetail } from "../endpoints/load.ts";
import { deployableVersion } from "../models/deployable.ts";
import { claimRevision, writeWeights } from "./weights.ts";
import { modelPlacement, placeNeed, poolGpuKind } from "../cluster/placement.ts";
import { fitTable } from "../shared/parallelism.ts";
import { MIN_KV_TOKENS, parallelismText } from "../shared/memory-rule.ts";
import type { ActorContext } from "../auth/actor.ts";
import { startReplica } from "../cluster/replicas.ts";
import { servedSplitOf } from "./served-split.ts";
import type { BlueGreenInput, DeployInput, PromoteInput, RemoveVersionInput, RollbackInput, VersionFitInput } from "./schemas.ts";


type Endpoint = EndpointDetail;
type Version = Endpoint["versions"][number];


function versionOf(e: Endpoint, endpointVersionId: string): Version {
  const v = e.versions.find((x) => x.id === endpointVersionId);
  if (!v) throw new NotFoundError("Endpoint version");
  return v;
}

const split = (e: Endpoint) => e.versions.filter((v) => v.state !== "retired").map((v) => ({ version: v.modelVersion.version, weight: v.weight, state: v.state }));

async function activePlan(tx: DbTx, endpointId: string) {
  return tx.rollout.findFirst({ where: { endpointId, state: { in: ["running", "paused"] } } });
}

/**
 * Deploys a version beside the live one: places `replicas` replicas on free GPUs or MIG instances
 * of the endpoint's pool that fit the version's weights plus KV cache — refusing, before anything
 * starts, when they do not all fit — then starts them. The version takes no traffic (weight 0)
 * until the operator gives it some, which needs a ready replica.
 */
export async function deployVersion(ctx: ClusterContext, input: DeployInput) {
  const endpoint = await loadEndpoint(ctx.db, input.endpointId);
  if (endpoint.retiredAt) throw new ConflictError(`Endpoint ${endpoint.name} was retired: nothing more is deployed to it.`);
  const mv = await deployableVersion(ctx.db, input.modelVersionId, endpoint.model);
  const existing = endpoint.versions.find((v) => v.modelVersionId === mv.id);
  if (existing && existing.state === "draining") throw new ConflictError(`Version ${mv.version} is still draining: wait until it is retired, then deploy it again.`, { field: "modelVersionId" });

  // The same rule a manual start and the autoscaler apply (placement.ts, memory-rule.ts); a split
  // chosen here is kept on the endpoint version, so they place later replicas the same way.
  const chosen = input.parallelism ? { tensorParallel: input.parallelism.tensor, pipelineParallel: input.parallelism.pipeline } : null;
  const { need, scope } = await modelPlacement(ctx.db, endpoint, mv, chosen ?? existing);
  const placed = await placeNeed(ctx.db, need, scope, input.replicas);
  if (placed.why) throw new InvalidInputError("replicas", `${placed.why}. Stop replicas, change a MIG layout or choose fewer replicas.`);
  const devices = placed.chosen;

  const endpointVersionId = await ctx.db.$transaction(async (tx) => {
    await claimRevision(tx, endpoint.id, input.expectedRevision);
    const ev = existing
      ? await tx.endpointVersion.update({ where: { id: existing.id }, data: { state: existing.state === "retired" || existing.state === "failed" ? "pending" : existing.state, drainStartedAt: null, keepWarmUntil: null, ...(chosen ?? {}) } })
      : await tx.endpointVersion.create({ data: { endpointId: endpoint.id, modelVersionId: mv.id, weight: 0, state: "pending", ...(chosen ?? {}) } });
    await recordAudit(tx, {
      actor: ctx.actor,
      ip: ctx.ip,
      action: "endpoint.deploy",
      targetType: "endpoint",
      targetId: endpoint.id,
      before: split(endpoint),
      after: { version: mv.version, replicas: input.replicas, split: parallelismText(need.parallelism), devices: devices.map((d) => d.label) },
    });
    return ev.id;
  });
  const started = [];
  for (const d of devices) started.push(await startReplica(ctx, { endpointVersionId, device: d.device }, { placementReason: d.reason }));
  return { endpoint: await loadEndpoint(ctx.db, endpoint.id), replicas: started };
}

/**
 * How a model version lays over the endpoint pool's GPU kind, split by split (parallelism.ts):
 * memory per GPU, the sequences its KV cache holds, and the split a deploy would use. Read by the
 * deploy form before anything starts.
 */
export async function versionFit({ db }: ActorContext, input: VersionFitInput) {
  const endpoint = await loadEndpoint(db, input.endpointId);
  const mv = await deployableVersion(db, input.modelVersionId, endpoint.model);
  const asked = input.parallelism ? { tensorParallel: input.parallelism.tensor, pipelineParallel: input.parallelism.pipeline } : endpoint.versions.find((v) => v.modelVersionId === mv.id);
  const [{ need, memory }, kind] = await Promise.all([modelPlacement(db, endpoint, mv, asked), poolGpuKind(db, endpoint.nodePool.id)]);
  const context = mv.contextTokens ?? MIN_KV_TOKENS;
  const lines = kind ? fitTable(memory, kind, context) : [];
  const chosen = (l: (typeof lines)[number]) => l.parallelism.tensor === need.parallelism.tensor && l.parallelism.pipeline === need.parallelism.pipeline;
  return { gpuKind: kind?.modelName ?? null, gpuMemoryBytes: kind?.memoryBytes ?? null, contextTokens: context, maxBatch: mv.maxBatch, parallelism: need.parallelism, lines: lines.map((l) => ({ ...l, chosen: chosen(l) })) };
}

/**
 * Sends 100% to a version and drains the ones that served until now: the gateways stop sending
 * them requests within a second, in-flight streams get `drainTimeoutSeconds` to finish, then the
 * drain worker stops their replicas and frees the GPUs.
 */
export async function promoteVersion(ctx: ClusterContext, input: PromoteInput) {
  return switchTo(ctx, input, "endpoint.promote", { drainTimeoutSeconds: input.drainTimeoutSeconds, keepWarmSeconds: null });
}

/** 0 → 100 in one step, the replaced version kept ready at 0% for `keepWarmSeconds`. */
export async function blueGreenSwitch(ctx: ClusterContext, input: BlueGreenInput) {
  return switchTo(ctx, input, "endpoint.blue_green", { drainTimeoutSeconds: input.drainTimeoutSeconds, keepWarmSeconds: input.keepWarmSeconds });
}

async function switchTo(
  ctx: ClusterContext,
  input: { endpointId: string; endpointVersionId: string; expectedRevision: number },
  action: string,
  opts: { drainTimeoutSeconds: number; keepWarmSeconds: number | null },
) {
  const metrics = await servedSplitOf(ctx.db, input.endpointId);
  return ctx.db.$transaction(async (tx) => {
    const before = await loadEndpoint(tx, input.endpointId);
    const target = versionOf(before, input.endpointVersionId);
    if (target.state !== "ready") throw new InvalidInputError("endpointVersionId", `version ${target.modelVersion.version} is ${target.state}: it needs a ready replica before it can take all traffic`);
    const plan = await activePlan(tx, before.id);
    if (plan) throw new ConflictError("An automatic rollout is in progress on this endpoint: advance it or abort it first.", { field: "endpointVersionId" });
    await claimRevision(tx, before.id, input.expectedRevision);
    const now = Date.now();
    const replaced = before.versions.filter((v) => v.id !== target.id && v.weight > 0);
    await applySwitch(tx, before, target.id, opts, now);
    const after = await loadEndpoint(tx, before.id);
    await recordAudit(tx, {
      actor: ctx.actor,
      ip: ctx.ip,
      action,
      targetType: "endpoint",
      targetId: before.id,
      before: split(before),
      after: { split: split(after), to: target.modelVersion.version, replaced: replaced.map((v) => v.modelVersion.version), ...opts, metrics },
    });
    return after;
  });
}

/** Weights to one version; the replaced ones drain now, or stay warm until a deadline. */
export async function applySwitch(tx: DbTx, before: Endpoint, targetId: string, opts: { drainTimeoutSeconds: number; keepWarmSeconds: number | null }, now: number) {
  const replaced = new Set(before.versions.filter((v) => v.id !== targetId && v.weight > 0).map((v) => v.id));
  await writeWeights(tx, before.versions, new Map([[targetId, 100]]), (id) => {
    if (!replaced.has(id)) return {};
    return opts.keepWarmSeconds === null
      ? { state: "draining" as const, drainStartedAt: new Date(now), drainTimeoutSeconds: opts.drainTimeoutSeconds }
      : { keepWarmUntil: new Date(now + opts.keepWarmSeconds * 1000), drainTimeoutSeconds: opts.drainTimeoutSeconds };
  });
}

/**
 * One click back: 100% to the last version that held all traffic (before the one holding it now,
 * if any). The versions it takes traffic from keep their replicas, for inspection.
 */
export async function rollbackEndpoint(ctx: ClusterContext, input: RollbackInput) {
  const metrics = await servedSplitOf(ctx.db, input.endpointId);
  return ctx.db.$transaction(async (tx) => {
    const before = await loadEndpoint(tx, input.endpointId);
    const target = rollbackTarget(before);
    await claimRevision(tx, before.id, input.expectedRevision);
    const plan = await activePlan(tx, before.id);
    if (plan) {
      await tx.rollout.update({ where: { id: plan.id }, data: { state: "rolled_back", endedAt: new Date(), revision: { increment: 1 }, outcome: { why: "operator rollback", by: ctx.actor.email } } });
    }
    await writeWeights(tx, before.versions, new Map([[target.id, 100]]));
    const after = await loadEndpoint(tx, before.id);
    await recordAudit(tx, {
      actor: ctx.actor,
      ip: ctx.ip,
      action: "endpoint.rollback",
      targetType: "endpoint",
      targetId: before.id,
      before: split(before),
      after: { split: split(after), to: target.modelVersion.version, planId: plan?.id ?? null, metrics },
    });
    return after;
  });
}

/** The version a rollback returns to, or a clear refusal naming why there is none. */
export function rollbackTarget(e: Endpoint): Version {
  const holder = e.versions.find((v) => v.weight === 100);
  const candidates = e.versions.filter((v) => v.id !== holder?.id && v.lastFullAt).sort((a, b) => b.lastFullAt!.getTime() - a.lastFullAt!.getTime());
  const target = candidates[0];
  if (!target) throw new InvalidInputError("endpointId", "no earlier version held all traffic: there is nothing to roll back to");
  if (target.state !== "ready") {
    throw new InvalidInputError("endpointId", `version ${target.modelVersion.version} last held all traffic but is ${target.state} (no ready replica): deploy it again to go back to it`);
  }
  return target;
}

/**
 * Takes a version off the endpoint: refused while it serves traffic; otherwise it drains and the
 * drain worker stops its replicas and retires it.
 */
export async function removeVersion(ctx: ClusterContext, input: RemoveVersionInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await loadEndpoint(tx, input.endpointId);
    const v = versionOf(before, input.endpointVersionId);
    if (v.weight > 0) throw new InvalidInputError("endpointVersionId", `version ${v.modelVersion.version} serves ${v.weight}% of traffic: move its traffic to another version first`);
    if (v.state === "retired" || v.state === "draining") throw new ConflictError(`Version ${v.modelVersion.version} is already ${v.state}.`, { field: "endpointVersionId" });
    const plan = await activePlan(tx, before.id);
    if (plan && (plan.canaryVersionId === v.id || plan.stableVersionId === v.id)) {
      throw new ConflictError("This version is part of the rollout in progress: abort the rollout first.", { field: "endpointVersionId" });
    }
    await claimRevision(tx, before.id, input.expectedRevision);
    await tx.endpointVersion.update({ where: { id: v.id }, data: { state: "draining", drainStartedAt: new Date(), drainTimeoutSeconds: input.drainTimeoutSeconds, keepWarmUntil: null } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "endpoint.version.remove", targetType: "endpoint", targetId: before.id, before: split(before), after: { version: v.modelVersion.version, drainTimeoutSeconds: input.drainTimeoutSeconds } });
    return loadEndpoint(tx, before.id);
  });
}
