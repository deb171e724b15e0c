import type { Prisma, PrismaClient } from "../db/generated/client.ts";
import type { DbTx } from "../db/client.ts";
import type { Actor } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.ts";
import type { AddEndpointVersionInput, CreateEndpointInput, SetWeightsInput } from "./schemas.ts";

interface Ctx {
  db: PrismaClient;
  actor: Actor;
  ip: string | null;
}

// Versions created together (an endpoint's first ones) share createdAt: id keeps their order stable.
const versionOrder: Prisma.EndpointVersionOrderByWithRelationInput[] = [{ createdAt: "asc" }, { id: "asc" }];

const detailInclude = {
  model: { select: { id: true, name: true, task: true } },
  nodePool: { select: { id: true, name: true, region: true } },
  versions: {
    orderBy: versionOrder,
    include: {
      modelVersion: { select: { id: true, version: true, precision: true, format: true, weightBytes: true, minGpuMemoryBytes: true } },
      replicas: {
        where: { state: { not: "stopped" } },
        orderBy: { createdAt: "asc" },
        select: { id: true, driver: true, state: true, reason: true, region: true, externalUrl: true, expectedReadyAt: true, migStartSlot: true, node: { select: { hostname: true } }, gpu: { select: { index: true } } },
      },
    },
  },
} as const;

export function listEndpoints({ db }: { db: PrismaClient }) {
  return db.endpoint.findMany({ orderBy: { name: "asc" }, include: detailInclude });
}

/** What a tenant may know of the endpoints it can call: no pools, weights or SLO internals. */
export function endpointCatalog({ db }: { db: PrismaClient }) {
  return db.endpoint.findMany({
    orderBy: { name: "asc" },
    select: { id: true, name: true, slug: true, model: { select: { name: true, task: true } } },
  });
}

export async function getEndpoint({ db, id }: { db: PrismaClient | DbTx; id: string }) {
  const endpoint = await db.endpoint.findUnique({ where: { id }, include: detailInclude });
  if (!endpoint) throw new NotFoundError("Endpoint");
  return endpoint;
}

export async function createEndpoint(ctx: Ctx, input: CreateEndpointInput) {
  return ctx.db.$transaction(async (tx) => {
    if (await tx.endpoint.findUnique({ where: { slug: input.slug } })) {
      throw new ConflictError(`The slug ${input.slug} is already used by another endpoint.`, { field: "slug" });
    }
    const version = await tx.modelVersion.findUnique({ where: { id: input.modelVersionId } });
    if (!version || version.modelId !== input.modelId) {
      throw new InvalidInputError("modelVersionId", "choose a version of the selected model");
    }
    if (!(await tx.nodePool.findUnique({ where: { id: input.nodePoolId } }))) {
      throw new InvalidInputError("nodePoolId", "unknown node pool");
    }
    const { modelVersionId, sloTtftMs, regionConstraint, ...rest } = input;
    const endpoint = await tx.endpoint.create({
      data: {
        ...rest,
        sloTtftMs: sloTtftMs ?? null,
        regionConstraint: regionConstraint ?? null,
        versions: { create: { modelVersionId, weight: 100, state: "pending", lastFullAt: new Date() } },
      },
      include: detailInclude,
    });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "endpoint.create", targetType: "endpoint", targetId: endpoint.id, after: endpoint });
    return endpoint;
  });
}

/** Bumps the revision only if the caller saw the current one; otherwise a conflict with the current state. */
export async function claimRevision(tx: DbTx, endpointId: string, expectedRevision: number) {
  const { count } = await tx.endpoint.updateMany({
    where: { id: endpointId, revision: expectedRevision },
    data: { revision: { increment: 1 } },
  });
  if (count === 0) {
    const current = await tx.endpoint.findUnique({ where: { id: endpointId }, include: detailInclude });
    if (!current) throw new NotFoundError("Endpoint");
    throw new ConflictError("Someone else changed this endpoint since you loaded it. Review the current state and try again.", { current });
  }
}

export async function addEndpointVersion(ctx: Ctx, input: AddEndpointVersionInput) {
  return ctx.db.$transaction(async (tx) => {
    const endpoint = await getEndpoint({ db: tx, id: input.endpointId });
    const version = await tx.modelVersion.findUnique({ where: { id: input.modelVersionId } });
    if (!version || version.modelId !== endpoint.model.id) {
      throw new InvalidInputError("modelVersionId", `choose a version of ${endpoint.model.name}`);
    }
    if (endpoint.versions.some((v) => v.modelVersionId === version.id)) {
      throw new ConflictError(`Version ${version.version} is already on this endpoint.`, { field: "modelVersionId" });
    }
    await claimRevision(tx, endpoint.id, input.expectedRevision);
    await tx.endpointVersion.create({ data: { endpointId: endpoint.id, modelVersionId: version.id, weight: 0, state: "pending" } });
    const after = await getEndpoint({ db: tx, id: endpoint.id });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "endpoint.version.add", targetType: "endpoint", targetId: endpoint.id, before: endpoint, after });
    return after;
  });
}

export async function setEndpointWeights(ctx: Ctx, input: SetWeightsInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await getEndpoint({ db: tx, id: input.endpointId });
    const byId = new Map(before.versions.map((v) => [v.id, v]));
    const named = new Set(input.weights.map((w) => w.endpointVersionId));
    if (named.size !== input.weights.length) throw new InvalidInputError("weights", "a version is listed twice");
    for (const w of input.weights) {
      const v = byId.get(w.endpointVersionId);
      if (!v) throw new InvalidInputError("weights", "a listed version is not on this endpoint");
      if (w.weight > 0 && (v.state === "retired" || v.state === "failed" || v.state === "draining")) {
        throw new InvalidInputError("weights", `version ${v.modelVersion.version} is ${v.state} and cannot take traffic`);
      }
      // Traffic goes only to a version that can answer it: one with a ready replica.
      if (w.weight > v.weight && v.state !== "ready") {
        throw new InvalidInputError("weights", `version ${v.modelVersion.version} has no ready replica yet: start one before giving it traffic`);
      }
    }
    await refuseWhilePlanRuns(tx, before.id);
    // Versions left out keep nothing: the listed weights already sum to 100.
    await claimRevision(tx, before.id, input.expectedRevision);
    await writeWeights(tx, before.versions, new Map(input.weights.map((w) => [w.endpointVersionId, w.weight])));
    const after = await getEndpoint({ db: tx, id: before.id });
    await recordAudit(tx, {
      actor: ctx.actor,
      ip: ctx.ip,
      action: "endpoint.weights.set",
      targetType: "endpoint",
      targetId: before.id,
      before: before.versions.map((v) => ({ version: v.modelVersion.version, weight: v.weight })),
      after: after.versions.map((v) => ({ version: v.modelVersion.version, weight: v.weight })),
    });
    return after;
  });
}

/**
 * Writes an endpoint's weights (versions not in `weights` get 0) and notes when a version takes
 * all traffic: rollback returns to the latest such version. The caller has claimed the revision.
 */
export async function writeWeights(tx: DbTx, versions: { id: string; weight: number }[], weights: Map<string, number>, extra: (id: string) => object = () => ({})) {
  const now = new Date();
  for (const v of versions) {
    const weight = weights.get(v.id) ?? 0;
    const more = extra(v.id);
    if (weight === v.weight && Object.keys(more).length === 0) continue;
    await tx.endpointVersion.update({ where: { id: v.id }, data: { weight, ...(weight === 100 && v.weight !== 100 ? { lastFullAt: now, keepWarmUntil: null } : {}), ...more } });
  }
}

/** While an automatic rollout is in progress it owns the weights; a hand on the slider would fight it. */
export async function refuseWhilePlanRuns(tx: DbTx, endpointId: string) {
  const running = await tx.rollout.findFirst({ where: { endpointId, state: "running" } });
  if (running) throw new ConflictError("An automatic rollout is running on this endpoint and owns its weights: pause or abort it first.", { field: "weights" });
}
