import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import type { DbTx } from "../db/client.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import type { ModelIdInput, ModelVersionIdInput, UpdateModelInput } from "./schemas.ts";

/*
 * Editing and retiring models and versions. Nothing is deleted: a retired model or version keeps
 * its history (call log, usage, audit) and can no longer be deployed (deployable.ts). Retiring is
 * refused, saying what, while something still depends on it.
 */

/** A model's name and description; refused if someone changed it since the editor loaded it. */
export async function updateModel(ctx: ActorContext, input: UpdateModelInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.model.findUnique({ where: { id: input.id } });
    if (!before) throw new NotFoundError("Model");
    if (input.name && input.name !== before.name && (await tx.model.findUnique({ where: { name: input.name } }))) {
      throw new ConflictError(`A model named ${input.name} already exists.`, { field: "name" });
    }
    const { count } = await tx.model.updateMany({ where: { id: before.id, updatedAt: input.expectedUpdatedAt }, data: { name: input.name, description: input.description } });
    if (count === 0) throw new ConflictError(`Someone else changed ${before.name} since you loaded it. Review the current values and try again.`, { current: before });
    const after = await tx.model.findUniqueOrThrow({ where: { id: before.id } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "model.update", targetType: "model", targetId: before.id, before, after });
    return after;
  });
}

/** The replicas still running a model version, and the endpoints whose split gives it traffic. */
async function versionDependents(tx: DbTx, modelVersionIds: string[]) {
  const uses = await tx.endpointVersion.findMany({
    where: { modelVersionId: { in: modelVersionIds }, state: { not: "retired" } },
    select: { weight: true, modelVersion: { select: { version: true } }, endpoint: { select: { slug: true } }, replicas: { where: { state: { notIn: ["stopped", "failed"] } }, select: { id: true } } },
  });
  const replicas = uses.flatMap((u) => u.replicas.map(() => `${u.endpoint.slug} (${u.modelVersion.version})`));
  const traffic = uses.filter((u) => u.weight > 0).map((u) => `${u.weight}% of ${u.endpoint.slug} (${u.modelVersion.version})`);
  return { replicas, traffic };
}

function refuseWhileUsed(what: string, deps: { replicas: string[]; traffic: string[] }) {
  const reasons: string[] = [];
  if (deps.traffic.length) reasons.push(`it takes ${deps.traffic.join(", ")}: move that traffic to another version first`);
  if (deps.replicas.length) reasons.push(`${deps.replicas.length} replica(s) still run it (${[...new Set(deps.replicas)].join(", ")}): stop or drain them first`);
  if (reasons.length) throw new ConflictError(`${what} cannot be retired yet: ${reasons.join("; ")}.`);
}

export async function retireModelVersion(ctx: ActorContext, { id }: ModelVersionIdInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.modelVersion.findUnique({ where: { id }, include: { model: { select: { name: true } } } });
    if (!before) throw new NotFoundError("Model version");
    if (before.retiredAt) return before;
    refuseWhileUsed(`Version ${before.version} of ${before.model.name}`, await versionDependents(tx, [id]));
    const after = await tx.modelVersion.update({ where: { id }, data: { retiredAt: new Date() }, include: { model: { select: { name: true } } } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "model.version.retire", targetType: "model_version", targetId: id, before, after });
    return after;
  });
}

/** Retires a model and its versions once no endpoint in service uses it. */
export async function retireModel(ctx: ActorContext, { id }: ModelIdInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.model.findUnique({ where: { id }, include: { versions: { select: { id: true } }, endpoints: { where: { retiredAt: null }, select: { slug: true } } } });
    if (!before) throw new NotFoundError("Model");
    if (before.retiredAt) return before;
    if (before.endpoints.length) throw new ConflictError(`${before.name} cannot be retired yet: endpoint(s) ${before.endpoints.map((e) => e.slug).join(", ")} still serve it: retire them first.`);
    refuseWhileUsed(before.name, await versionDependents(tx, before.versions.map((v) => v.id)));
    const now = new Date();
    await tx.modelVersion.updateMany({ where: { modelId: id, retiredAt: null }, data: { retiredAt: now } });
    const after = await tx.model.update({ where: { id }, data: { retiredAt: now } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "model.retire", targetType: "model", targetId: id, before, after });
    return after;
  });
}
