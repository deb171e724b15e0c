import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError } from "../errors.ts";
import { claimRevision } from "../rollouts/weights.ts";
import { loadEndpoint, type EndpointDetail } from "./load.ts";
import { checkRoutingTargets } from "./routing-targets.ts";
import type { RetireEndpointInput, UpdateEndpointInput } from "./schemas.ts";

/** A retired endpoint must have been quiet this long: a client still calling it would start getting 404s. */
export const RETIRE_QUIET_MINUTES = 15;

const editable = (e: EndpointDetail) => ({
  name: e.name,
  stickySessions: e.stickySessions,
  regionConstraint: e.regionConstraint,
  replicaChoice: e.replicaChoice,
  privatePrefixCache: e.privatePrefixCache,
  fallbackEndpointIds: e.fallbackEndpointIds,
  requestClasses: e.requestClasses,
});

/**
 * An endpoint's name, stickiness, region rule and routing — replica choice, private prefix caches, fallbacks, request
 * classes — (its SLOs: update-slo.ts), guarded by its
 * revision like every change of its traffic; the gateways reload on the Endpoint NOTIFY.
 */
export async function updateEndpoint(ctx: ActorContext, input: UpdateEndpointInput) {
  const { id, expectedRevision, ...data } = input;
  return ctx.db.$transaction(async (tx) => {
    const before = await loadEndpoint(tx, id);
    if (before.retiredAt) throw new ConflictError(`Endpoint ${before.name} was retired: it can no longer be changed.`);
    await checkRoutingTargets(tx, id, input);
    await claimRevision(tx, id, expectedRevision);
    await tx.endpoint.update({ where: { id }, data });
    const after = await loadEndpoint(tx, id);
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "endpoint.update", targetType: "endpoint", targetId: id, before: editable(before), after: editable(after) });
    return after;
  });
}

/**
 * Retires an endpoint: the gateways answer 404 for it from then on, its slug stays taken and its
 * history stays. Refused, saying what, while replicas still run behind it or clients still call it.
 */
export async function retireEndpoint(ctx: ActorContext, input: RetireEndpointInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await loadEndpoint(tx, input.id);
    if (before.retiredAt) return before;
    const reasons: string[] = [];
    const running = before.versions.flatMap((v) => v.replicas.filter((r) => r.state !== "failed").map(() => v.modelVersion.version));
    if (running.length) reasons.push(`${running.length} replica(s) still run behind it (versions ${[...new Set(running)].join(", ")}): drain its versions first`);
    const since = new Date(Date.now() - RETIRE_QUIET_MINUTES * 60_000);
    const calls = await tx.callLog.count({ where: { endpointId: before.id, startedAt: { gte: since } } });
    if (calls) reasons.push(`it answered ${calls} call(s) in the last ${RETIRE_QUIET_MINUTES} minutes: move its clients to another endpoint first`);
    if (reasons.length) throw new ConflictError(`${before.name} cannot be retired yet: ${reasons.join("; ")}.`);
    await claimRevision(tx, before.id, input.expectedRevision);
    await tx.endpointVersion.updateMany({ where: { endpointId: before.id }, data: { state: "retired", weight: 0 } });
    await tx.endpoint.update({ where: { id: before.id }, data: { retiredAt: new Date() } });
    const after = await loadEndpoint(tx, before.id);
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "endpoint.retire", targetType: "endpoint", targetId: before.id, before, after });
    return after;
  });
}
