import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import type { AddModelVersionInput, CreateModelInput, ModelIdInput } from "./schemas.ts";

export function listModels({ db }: ActorContext) {
  return db.model.findMany({
    orderBy: { name: "asc" },
    include: {
      versions: { orderBy: { createdAt: "desc" }, select: { id: true, version: true, precision: true, createdAt: true, retiredAt: true } },
      _count: { select: { endpoints: true } },
    },
  });
}

export async function getModel({ db }: ActorContext, { id }: ModelIdInput) {
  const model = await db.model.findUnique({
    where: { id },
    include: {
      versions: { orderBy: { createdAt: "desc" } },
      endpoints: { select: { id: true, name: true, slug: true, retiredAt: true } },
    },
  });
  if (!model) throw new NotFoundError("Model");
  return model;
}

export async function createModel(ctx: ActorContext, input: CreateModelInput) {
  return ctx.db.$transaction(async (tx) => {
    if (await tx.model.findUnique({ where: { name: input.name } })) {
      throw new ConflictError(`A model named ${input.name} already exists.`, { field: "name" });
    }
    const model = await tx.model.create({ data: { ...input, createdById: ctx.actor.userId } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "model.create", targetType: "model", targetId: model.id, after: model });
    return model;
  });
}

export async function addModelVersion(ctx: ActorContext, input: AddModelVersionInput) {
  return ctx.db.$transaction(async (tx) => {
    const model = await tx.model.findUnique({ where: { id: input.modelId } });
    if (!model) throw new NotFoundError("Model");
    if (model.retiredAt) throw new ConflictError(`${model.name} was retired: it takes no new versions.`);
    if (await tx.modelVersion.findUnique({ where: { modelId_version: { modelId: model.id, version: input.version } } })) {
      throw new ConflictError(`${model.name} already has a version ${input.version}.`, { field: "version" });
    }
    const version = await tx.modelVersion.create({ data: { ...input, createdById: ctx.actor.userId } });
    await recordAudit(tx, {
      actor: ctx.actor,
      ip: ctx.ip,
      action: "model.version.add",
      targetType: "model_version",
      targetId: version.id,
      after: version,
    });
    return version;
  });
}
