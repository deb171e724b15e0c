import type { ActorContext } from "../auth/actor.ts";
import type { EndpointRefInput } from "./schemas.ts";

/** Audit actions that make up an endpoint's rollout timeline. */
export const HISTORY_ACTIONS = [
  "endpoint.create",
  "endpoint.version.add",
  "endpoint.deploy",
  "endpoint.weights.set",
  "endpoint.promote",
  "endpoint.blue_green",
  "endpoint.rollback",
  "endpoint.version.remove",
  "endpoint.version.keep_warm_ended",
  "endpoint.version.retire",
  "rollout.start",
  "rollout.pause",
  "rollout.resume",
  "rollout.advance",
  "rollout.abort",
  "rollout.auto.advance",
  "rollout.auto.promote",
  "rollout.auto.rollback",
] as const;

/**
 * The endpoint's timeline: every deploy, weight change, promote, rollback and automatic decision,
 * newest first — who (or Kule itself), when, and what was recorded with it (reason, metrics).
 * The audit log is the one record; this is a view of it.
 */
export async function endpointHistory({ db }: ActorContext, { endpointId }: EndpointRefInput, limit = 100) {
  const rows = await db.auditEvent.findMany({
    where: { targetType: "endpoint", targetId: endpointId, action: { in: [...HISTORY_ACTIONS] } },
    orderBy: { id: "desc" },
    take: limit,
  });
  return rows.map((r) => ({
    id: r.id.toString(),
    at: r.at,
    action: r.action,
    by: r.actorEmail ?? "Kule (automatic)",
    automatic: r.actorId === null,
    before: r.before,
    after: r.after,
  }));
}
