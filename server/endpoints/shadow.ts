import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.ts";
import { claimRevision } from "../rollouts/weights.ts";
import { loadEndpoint } from "./load.ts";
import type { SetShadowInput } from "./schemas.ts";

/**
 * Shadow traffic for a version: `percent` of the endpoint's calls also go to it, its answers
 * thrown away and never billed (server/gateway/shadow.ts), so it is measured on real traffic before
 * it takes any. Only a version at weight 0 can shadow; guarded by the endpoint's revision, audited.
 */
export async function setShadow(ctx: ActorContext, input: SetShadowInput) {
  return ctx.db.$transaction(async (tx) => {
    const v = await tx.endpointVersion.findUnique({ where: { id: input.endpointVersionId }, include: { endpoint: { select: { id: true, name: true, retiredAt: true } }, modelVersion: { select: { version: true } } } });
    if (!v) throw new NotFoundError("Endpoint version");
    if (v.endpoint.retiredAt) throw new ConflictError(`Endpoint ${v.endpoint.name} was retired: it can no longer be changed.`);
    if (input.percent > 0 && (v.weight > 0 || v.state === "retired" || v.drainStartedAt)) {
      throw new InvalidInputError(
        "percent",
        v.weight > 0
          ? `Version ${v.modelVersion.version} takes ${v.weight}% of live traffic: shadow traffic is for a version at weight 0. Set its weight to 0 first, or shadow another version.`
          : `Version ${v.modelVersion.version} is ${v.state === "retired" ? "retired" : "draining"}: deploy a version to shadow it.`,
      );
    }
    await claimRevision(tx, v.endpointId, input.expectedRevision);
    await tx.endpointVersion.update({ where: { id: v.id }, data: { shadowPercent: input.percent } });
    await recordAudit(tx, {
      actor: ctx.actor,
      ip: ctx.ip,
      action: "endpoint.shadow",
      targetType: "endpoint",
      targetId: v.endpointId,
      before: { version: v.modelVersion.version, shadowPercent: v.shadowPercent },
      after: { version: v.modelVersion.version, shadowPercent: input.percent },
    });
    return loadEndpoint(tx, v.endpointId);
  });
}
