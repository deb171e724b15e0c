import type { DbTx } from "../db/client.ts";
import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.ts";
import { detailInclude, loadEndpoint } from "../endpoints/load.ts";
import type { SetWeightsInput } from "./schemas.ts";

/*
 * An endpoint's traffic: its versions' weights, the revision that guards them against concurrent
 * edits, and the rule that a running automatic canary owns them. Every change of weights (the
 * slider, promote, rollback, a canary's steps) goes through here.
 */

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

/** The operator's split (the slider, or one weight per version), checked against each version's state. */
export async function setWeights(ctx: ActorContext, input: SetWeightsInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await loadEndpoint(tx, input.endpointId);
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
    const after = await loadEndpoint(tx, before.id);
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
