import type { ClusterContext } from "../cluster/drivers.ts";
import { clusterDriver } from "../cluster/drivers.ts";
import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.ts";
import type { Locale } from "../shared/i18n/locales.ts";
import { translateServerMessage } from "../shared/i18n/server-messages.ts";
import type { AutoscaleHistoryInput, AutoscaleRefInput, ColdStartInput, SetAutoscaleInput } from "./schemas.ts";

/** The policy of a version, or null: the page shows an empty form then. */
export async function getPolicy({ db }: ActorContext, { endpointVersionId }: AutoscaleRefInput) {
  const v = await db.endpointVersion.findUnique({ where: { id: endpointVersionId }, include: { autoscale: true } });
  if (!v) throw new NotFoundError("Endpoint version");
  return v.autoscale;
}

/**
 * Creates or edits a version's policy. Refused where Kule cannot start servers: a version served
 * by external servers (the user runs them), or a cluster driver without start/stop.
 */
export async function setPolicy(ctx: ClusterContext, input: SetAutoscaleInput) {
  const v = await ctx.db.endpointVersion.findUnique({ where: { id: input.endpointVersionId }, include: { autoscale: true, modelVersion: true, replicas: { where: { state: { not: "stopped" } }, select: { driver: true } } } });
  if (!v) throw new NotFoundError("Endpoint version");
  if (v.state === "retired" || v.state === "draining") throw new InvalidInputError("endpointVersionId", `version ${v.modelVersion.version} is ${v.state}: nothing is scaled on it`);
  if (v.replicas.some((r) => r.driver === "external"))
    throw new InvalidInputError("endpointVersionId", `version ${v.modelVersion.version} is served by external servers, which the external driver cannot start or stop: Kule only routes to them. Scale them where they run, or serve the version from the cluster instead.`);
  const driver = clusterDriver(ctx.drivers);
  if (!driver.capabilities.startStop) throw new InvalidInputError("endpointVersionId", `the ${driver.kind} driver cannot start servers, so it cannot autoscale`);
  const data = { enabled: input.enabled, minReplicas: input.minReplicas, maxReplicas: input.maxReplicas, signal: input.signal, target: input.target, scaleUpWindowSeconds: input.scaleUpWindowSeconds, scaleDownWindowSeconds: input.scaleDownWindowSeconds, updatedById: ctx.actor.userId };
  return ctx.db.$transaction(async (tx) => {
    const before = v.autoscale;
    let after;
    if (!before) after = await tx.autoscalePolicy.create({ data: { endpointVersionId: v.id, ...data } });
    else {
      if (input.expectedRevision !== before.revision) throw new ConflictError(`Someone changed this policy meanwhile (revision ${before.revision}): reload and apply your change again.`, { current: before });
      const { count } = await tx.autoscalePolicy.updateMany({ where: { id: before.id, revision: before.revision }, data: { ...data, revision: { increment: 1 }, history: [] } });
      if (!count) throw new ConflictError("Someone changed this policy meanwhile: reload and apply your change again.");
      after = await tx.autoscalePolicy.findUniqueOrThrow({ where: { id: before.id } });
    }
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "autoscale.policy.set", targetType: "endpoint_version", targetId: v.id, before: before && pick(before), after: { ...pick(after), version: v.modelVersion.version } });
    return after;
  });
}

const pick = (p: { enabled: boolean; minReplicas: number; maxReplicas: number; signal: string; target: number; scaleUpWindowSeconds: number; scaleDownWindowSeconds: number }) => ({
  enabled: p.enabled,
  minReplicas: p.minReplicas,
  maxReplicas: p.maxReplicas,
  signal: p.signal,
  target: p.target,
  scaleUpWindowSeconds: p.scaleUpWindowSeconds,
  scaleDownWindowSeconds: p.scaleDownWindowSeconds,
});

export async function removePolicy(ctx: ActorContext, { endpointVersionId }: AutoscaleRefInput) {
  return ctx.db.$transaction(async (tx) => {
    const p = await tx.autoscalePolicy.findUnique({ where: { endpointVersionId } });
    if (!p) throw new NotFoundError("Autoscaling policy");
    await tx.autoscalePolicy.delete({ where: { id: p.id } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "autoscale.policy.remove", targetType: "endpoint_version", targetId: endpointVersionId, before: pick(p) });
    return { removed: true };
  });
}

export async function setColdStart(ctx: ActorContext, input: ColdStartInput) {
  return ctx.db.$transaction(async (tx) => {
    const e = await tx.endpoint.findUnique({ where: { id: input.endpointId } });
    if (!e) throw new NotFoundError("Endpoint");
    const after = await tx.endpoint.update({ where: { id: e.id }, data: { coldStartQueueLimit: input.coldStartQueueLimit, coldStartTimeoutSeconds: input.coldStartTimeoutSeconds } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "endpoint.cold_start.set", targetType: "endpoint", targetId: e.id, before: { coldStartQueueLimit: e.coldStartQueueLimit, coldStartTimeoutSeconds: e.coldStartTimeoutSeconds }, after: { coldStartQueueLimit: after.coldStartQueueLimit, coldStartTimeoutSeconds: after.coldStartTimeoutSeconds } });
    return { coldStartQueueLimit: after.coldStartQueueLimit, coldStartTimeoutSeconds: after.coldStartTimeoutSeconds };
  });
}

export interface DecisionPoint {
  at: string;
  versionId: string;
  action: string;
  ready: number;
  starting: number;
  desired: number;
  value: number | null;
  reason: string;
}

/** The autoscaler's decisions on an endpoint's versions (its audit events), oldest first, for the chart. */
export async function decisionHistory({ db }: ActorContext, input: AutoscaleHistoryInput) {
  const e = await db.endpoint.findUnique({ where: { id: input.endpointId }, include: { versions: { include: { autoscale: true, modelVersion: { select: { version: true } } } } } });
  if (!e) throw new NotFoundError("Endpoint");
  const since = new Date(Date.now() - (input.hours ?? 6) * 3600_000);
  const events = await db.auditEvent.findMany({
    where: { action: "autoscale.decision", targetType: "endpoint_version", targetId: { in: e.versions.map((v) => v.id) }, at: { gte: since } },
    orderBy: { at: "asc" },
    take: 2000,
  });
  const points: DecisionPoint[] = events.map((ev) => ({ ...(ev.after as Omit<DecisionPoint, "at" | "versionId">), at: ev.at.toISOString(), versionId: ev.targetId! }));
  return {
    coldStart: { coldStartQueueLimit: e.coldStartQueueLimit, coldStartTimeoutSeconds: e.coldStartTimeoutSeconds },
    versions: e.versions.filter((v) => v.state !== "retired").map((v) => ({ id: v.id, label: v.modelVersion.version, policy: v.autoscale })),
    points,
  };
}

/**
 * The stored decisions' reasons in the reader's language: the loop stores English (the audit log
 * keeps one language), the page shows what this returns.
 */
export function policyInLanguage<P extends { lastDecision: unknown } | null>(locale: Locale | undefined, p: P): P {
  const last = p?.lastDecision as { reason?: string } | null | undefined;
  if (!p || !locale || typeof last?.reason !== "string") return p;
  return { ...p, lastDecision: { ...last, reason: translateServerMessage(locale, last.reason) } };
}

export function historyInLanguage<H extends { points: DecisionPoint[]; versions: { policy: { lastDecision: unknown } | null }[] }>(locale: Locale | undefined, h: H): H {
  if (!locale) return h;
  return { ...h, versions: h.versions.map((v) => ({ ...v, policy: policyInLanguage(locale, v.policy) })), points: h.points.map((pt) => ({ ...pt, reason: translateServerMessage(locale, pt.reason) })) };
}
