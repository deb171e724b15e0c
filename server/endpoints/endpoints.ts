import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError } from "../errors.ts";
import { claimRevision } from "../rollouts/weights.ts";
import { deployableVersion } from "../models/deployable.ts";
import { detailInclude, loadEndpoint } from "./load.ts";
import type { AddEndpointVersionInput, CreateEndpointInput, EndpointIdInput } from "./schemas.ts";
import type { Locale } from "../shared/i18n/locales.ts";
import { translateServerMessage } from "../shared/i18n/server-messages.ts";

export function listEndpoints({ db }: ActorContext) {
  return db.endpoint.findMany({ orderBy: { name: "asc" }, include: detailInclude });
}

/** What a tenant may know of the endpoints it can call: no pools, weights or SLO internals. */
export function endpointCatalog({ db }: ActorContext) {
  return db.endpoint.findMany({
    where: { retiredAt: null },
    orderBy: { name: "asc" },
    select: { id: true, name: true, slug: true, model: { select: { name: true, task: true } } },
  });
}

/** One endpoint for its page: why a replica is not serving and why its device was chosen are stored as Kule words them (English), shown in the reader's language. */
export async function getEndpoint({ db, locale }: ActorContext & { locale?: Locale }, { id }: EndpointIdInput) {
  const e = await loadEndpoint(db, id);
  if (!locale || locale === "en") return e;
  return { ...e, versions: e.versions.map((v) => ({ ...v, replicas: v.replicas.map((r) => ({ ...r, reason: r.reason && translateServerMessage(locale, r.reason), placementReason: r.placementReason && translateServerMessage(locale, r.placementReason) })) })) };
}

export async function createEndpoint(ctx: ActorContext, input: CreateEndpointInput) {
  return ctx.db.$transaction(async (tx) => {
    if (await tx.endpoint.findUnique({ where: { slug: input.slug } })) {
      throw new ConflictError(`The slug ${input.slug} is already used by another endpoint.`, { field: "slug" });
    }
    const model = await tx.model.findUnique({ where: { id: input.modelId } });
    if (!model) throw new InvalidInputError("modelId", "unknown model");
    await deployableVersion(tx, input.modelVersionId, model);
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

export async function addEndpointVersion(ctx: ActorContext, input: AddEndpointVersionInput) {
  return ctx.db.$transaction(async (tx) => {
    const endpoint = await loadEndpoint(tx, input.endpointId);
    if (endpoint.retiredAt) throw new ConflictError(`Endpoint ${endpoint.name} was retired: it takes no new versions.`);
    const version = await deployableVersion(tx, input.modelVersionId, endpoint.model);
    if (endpoint.versions.some((v) => v.modelVersionId === version.id)) {
      throw new ConflictError(`Version ${version.version} is already on this endpoint.`, { field: "modelVersionId" });
    }
    await claimRevision(tx, endpoint.id, input.expectedRevision);
    await tx.endpointVersion.create({ data: { endpointId: endpoint.id, modelVersionId: version.id, weight: 0, state: "pending" } });
    const after = await loadEndpoint(tx, endpoint.id);
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "endpoint.version.add", targetType: "endpoint", targetId: endpoint.id, before: endpoint, after });
    return after;
  });
}

