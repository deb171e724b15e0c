import type { PrismaClient } from "../db/generated/client.ts";
import type { Rollout } from "../db/generated/client.ts";
import type { DbTx } from "../db/client.ts";
import type { Actor, ActorContext } from "../auth/actor.ts";
import { Prisma } from "../db/generated/client.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError, isErrorKind, NotFoundError } from "../errors.ts";
import { loadEndpoint } from "../endpoints/load.ts";
import { claimRevision, writeWeights } from "./weights.ts";
import { applySwitch } from "./actions.ts";
import { InvalidTransition, transition, weightsAfter, type Analysis, type AnalysisConfig, type Decision, type PlanEvent, type PlanSnapshot, type PlanStep } from "./machine.ts";
import type { EndpointRefInput, PlanActionInput, StartPlanInput } from "./schemas.ts";
import type { Locale } from "../shared/i18n/locales.ts";
import { translateServerMessage } from "../shared/i18n/server-messages.ts";


export function snapshotOf(r: Rollout): PlanSnapshot {
  return {
    state: r.state,
    stepIndex: r.stepIndex,
    stepStartedAt: r.stepStartedAt.getTime(),
    pausedAt: r.pausedAt?.getTime() ?? null,
    steps: r.steps as unknown as PlanStep[],
    analysis: r.analysis as unknown as AnalysisConfig,
  };
}

const ACTIVE = { in: ["running", "paused"] as ("running" | "paused")[] };

/** The plan in progress on an endpoint, if any, with its versions' labels and why it holds, in the reader's language (stored in English). */
export async function activeRollout({ db, locale }: ActorContext & { locale?: Locale }, { endpointId }: EndpointRefInput) {
  const r = await db.rollout.findFirst({ where: { endpointId, state: ACTIVE } });
  const note = (r?.outcome as { note?: string } | null)?.note;
  return r ? describe(db, note && locale ? { ...r, outcome: { note: translateServerMessage(locale, note) } } : r) : null;
}

export async function recentRollouts({ db }: ActorContext, { endpointId }: EndpointRefInput) {
  const rows = await db.rollout.findMany({ where: { endpointId }, orderBy: { createdAt: "desc" }, take: 10 });
  return Promise.all(rows.map((r) => describe(db, r)));
}

async function describe(db: PrismaClient | DbTx, r: Rollout) {
  const versions = await db.endpointVersion.findMany({ where: { id: { in: [r.canaryVersionId, r.stableVersionId] } }, include: { modelVersion: { select: { version: true } } } });
  const label = (id: string) => versions.find((v) => v.id === id)?.modelVersion.version ?? "?";
  return { ...r, steps: r.steps as unknown as PlanStep[], analysis: r.analysis as unknown as AnalysisConfig, canaryLabel: label(r.canaryVersionId), stableLabel: label(r.stableVersionId) };
}

/**
 * Starts an automatic canary: from one version holding 100% (the stable one) to a ready canary,
 * through the steps. Refused while another plan is in progress on the endpoint.
 */
export async function startPlan(ctx: ActorContext, input: StartPlanInput) {
  try {
    return await ctx.db.$transaction(async (tx) => {
      const e = await loadEndpoint(tx, input.endpointId);
      const running = await tx.rollout.findFirst({ where: { endpointId: e.id, state: ACTIVE } });
      if (running) {
        const d = await describe(tx, running);
        throw new ConflictError(`A rollout is already in progress on this endpoint (${d.stableLabel} → ${d.canaryLabel}, step ${d.stepIndex + 1} of ${d.steps.length}, ${d.state}): finish or abort it first.`, { field: "canaryVersionId" });
      }
      const canary = e.versions.find((v) => v.id === input.canaryVersionId);
      if (!canary) throw new NotFoundError("Endpoint version");
      if (canary.state !== "ready") throw new InvalidInputError("canaryVersionId", `version ${canary.modelVersion.version} is ${canary.state}: deploy it and wait for a ready replica first`);
      const stable = e.versions.find((v) => v.weight === 100);
      if (!stable) throw new InvalidInputError("canaryVersionId", `a plan starts from one version holding 100% of traffic; now the split is ${e.versions.filter((v) => v.weight > 0).map((v) => `${v.modelVersion.version} ${v.weight}%`).join(" / ")}: promote or roll back first`);
      if (stable.id === canary.id) throw new InvalidInputError("canaryVersionId", `version ${canary.modelVersion.version} already holds all traffic`);
      await claimRevision(tx, e.id, input.expectedRevision);
      const now = new Date();
      const r = await tx.rollout.create({
        data: {
          endpointId: e.id,
          stableVersionId: stable.id,
          canaryVersionId: canary.id,
          steps: input.steps as unknown as Prisma.InputJsonValue,
          analysis: input.analysis as unknown as Prisma.InputJsonValue,
          drainTimeoutSeconds: input.drainTimeoutSeconds,
          stepStartedAt: now,
          createdById: ctx.actor.userId,
        },
      });
      const first = input.steps[0]!;
      if (first.weight >= 100) throw new InvalidInputError("steps", "the first step must be below 100: a plan that starts at 100% is a promote");
      await writeWeights(tx, e.versions, new Map([[stable.id, 100 - first.weight], [canary.id, first.weight]]));
      await recordAudit(tx, {
        actor: ctx.actor,
        ip: ctx.ip,
        action: "rollout.start",
        targetType: "endpoint",
        targetId: e.id,
        after: { rolloutId: r.id, from: stable.modelVersion.version, to: canary.modelVersion.version, steps: input.steps, analysis: input.analysis },
      });
      return describe(tx, r);
    });
  } catch (e) {
    // Two operators starting plans at once: the partial unique index lets one through.
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") throw new ConflictError("A rollout was just started on this endpoint by someone else.", { field: "canaryVersionId" });
    throw e;
  }
}

/** Pause, resume, advance or abort, by an operator whose view of the plan is current. */
export async function planAction(ctx: ActorContext, input: PlanActionInput) {
  const r = await ctx.db.rollout.findUnique({ where: { id: input.rolloutId } });
  if (!r) throw new NotFoundError("Rollout");
  const event: PlanEvent = { type: input.action, now: Date.now() };
  let step;
  try {
    step = transition(snapshotOf(r), event);
  } catch (e) {
    if (e instanceof InvalidTransition) throw new ConflictError(e.message, { field: "action" });
    throw e;
  }
  return persist(ctx.db, r, input.expectedRevision, step.next, step.decision, { actor: ctx.actor, ip: ctx.ip, action: `rollout.${input.action}`, metrics: null });
}

/**
 * Writes a transition: the plan row (only if nobody moved it meanwhile), the weights the decision
 * leaves, and the audit event that is also the history entry — all in one transaction.
 */
async function persist(db: PrismaClient, r: Rollout, expectedRevision: number, next: PlanSnapshot, decision: Decision, audit: { actor: Actor | null; ip: string | null; action: string; metrics: Analysis | null }) {
  return db.$transaction(async (tx) => {
    const ended = next.state !== "running" && next.state !== "paused";
    const outcome = decision.kind === "rollback" ? { why: decision.why, breach: decision.breach } : decision.kind === "promote" ? { why: decision.why } : undefined;
    const { count } = await tx.rollout.updateMany({
      where: { id: r.id, revision: expectedRevision },
      data: {
        state: next.state,
        stepIndex: next.stepIndex,
        stepStartedAt: new Date(next.stepStartedAt),
        pausedAt: next.pausedAt === null ? null : new Date(next.pausedAt),
        revision: { increment: 1 },
        ...(outcome ? { outcome: outcome as unknown as Prisma.InputJsonValue } : {}),
        ...(ended ? { endedAt: new Date() } : {}),
      },
    });
    if (count === 0) {
      const current = await tx.rollout.findUnique({ where: { id: r.id } });
      throw new ConflictError("The rollout changed since you loaded it (another operator or an automatic step). Review its current state and try again.", { current });
    }
    const weights = weightsAfter(decision);
    const before = await loadEndpoint(tx, r.endpointId);
    if (weights) {
      await tx.endpoint.update({ where: { id: r.endpointId }, data: { revision: { increment: 1 } } });
      if (decision.kind === "promote") {
        await applySwitch(tx, before, r.canaryVersionId, { drainTimeoutSeconds: r.drainTimeoutSeconds, keepWarmSeconds: null }, Date.now());
      } else {
        // Only the plan's two versions carry traffic while it runs.
        await writeWeights(tx, before.versions, new Map([[r.stableVersionId, weights.stable], [r.canaryVersionId, weights.canary]]));
      }
    }
    const label = (id: string) => before.versions.find((v) => v.id === id)?.modelVersion.version ?? "?";
    await recordAudit(tx, {
      actor: audit.actor,
      ip: audit.ip,
      action: audit.action,
      targetType: "endpoint",
      targetId: r.endpointId,
      after: {
        rolloutId: r.id,
        from: label(r.stableVersionId),
        to: label(r.canaryVersionId),
        decision,
        state: next.state,
        step: next.stepIndex + 1,
        steps: next.steps.length,
        weights,
        metrics: audit.metrics,
      },
    });
    const updated = await tx.rollout.findUniqueOrThrow({ where: { id: r.id } });
    return describe(tx, updated);
  });
}

export type Analyze = (endpoint: { slug: string }, canaryLabel: string, stableLabel: string | null, windowSeconds: number) => Promise<Analysis>;

/**
 * One pass of the automatic canary over every running plan: analyse, decide, apply. Safe to run in
 * several processes at once: a transition is written only against the revision it was decided on.
 */
export async function tickPlans(db: PrismaClient, analyze: Analyze, now = Date.now()): Promise<{ rolloutId: string; decision: Decision }[]> {
  const running = await db.rollout.findMany({ where: { state: "running" }, include: { endpoint: true } });
  const out = [];
  for (const r of running) {
    const s = snapshotOf(r);
    const versions = await db.endpointVersion.findMany({ where: { id: { in: [r.canaryVersionId, r.stableVersionId] } }, include: { modelVersion: { select: { version: true } } } });
    const canary = versions.find((v) => v.id === r.canaryVersionId);
    const stable = versions.find((v) => v.id === r.stableVersionId);
    let step: { next: PlanSnapshot; decision: Decision };
    let analysis: Analysis | null = null;
    if (!canary || canary.state !== "ready") {
      // A canary that lost its replicas cannot be judged healthy: back to stable.
      step = { next: { ...s, state: "rolled_back" }, decision: { kind: "rollback", why: "breach", breach: { metric: "ready_replicas", value: 0, threshold: 1, against: "slo" } } };
    } else {
      analysis = await analyze(r.endpoint, canary.modelVersion.version, stable?.modelVersion.version ?? null, s.analysis.windowSeconds).catch(() => null);
      const slo = { availabilityPct: Number(r.endpoint.sloAvailabilityPct), p99LatencyMs: r.endpoint.sloP99LatencyMs, ttftMs: r.endpoint.sloTtftMs };
      step = transition(s, { type: "tick", now, analysis, slo });
    }
    if (step.decision.kind === "hold") {
      const note = step.decision.note;
      if ((r.outcome as { note?: string } | null)?.note !== note) await db.rollout.updateMany({ where: { id: r.id, revision: r.revision }, data: { outcome: { note } } });
      continue;
    }
    const action = step.decision.kind === "rollback" ? "rollout.auto.rollback" : step.decision.kind === "promote" ? "rollout.auto.promote" : "rollout.auto.advance";
    try {
      await persist(db, r, r.revision, step.next, step.decision, { actor: null, ip: null, action, metrics: analysis });
      out.push({ rolloutId: r.id, decision: step.decision });
    } catch (e) {
      if (!isErrorKind(e, "conflict")) throw e; // an operator acted first: theirs stands
    }
  }
  return out;
}
