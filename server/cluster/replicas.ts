import type { PrismaClient } from "../db/generated/client.ts";
import type { DbTx } from "../db/client.ts";
import type { Actor } from "../auth/actor.ts";
import { clusterDriver, driverOf, type ClusterContext, type Drivers } from "./drivers.ts";
import type { Device, ReplicaSpec, ReplicaState, ReplicaStatus } from "./driver.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError, isErrorKind, NotFoundError } from "../errors.ts";
import type { RegisterExternalInput, StartReplicaInput, StopReplicaInput } from "./schemas.ts";
import { defaultMetricsUrl } from "../metrics/exporters/engines.ts";
import { groupPlacementReason, placementReason, versionPlacement } from "./placement.ts";
import { inRegionRule } from "../shared/regions.ts";
import { resolveDevice } from "./resolve-device.ts";
import { checkOutboundUrl } from "../http/outbound.ts";

const versionInclude = { endpoint: { include: { model: true, nodePool: true } }, modelVersion: true } as const;

async function loadVersion(db: PrismaClient | DbTx, endpointVersionId: string) {
  const v = await db.endpointVersion.findUnique({ where: { id: endpointVersionId }, include: versionInclude });
  if (!v) throw new NotFoundError("Endpoint version");
  if (v.state === "retired") throw new InvalidInputError("endpointVersionId", "this version is retired from the endpoint");
  return v;
}

function specOf(replicaId: string, v: Awaited<ReturnType<typeof loadVersion>>, device: Device): ReplicaSpec {
  return {
    id: replicaId,
    pool: v.endpoint.nodePool.name,
    engine: v.endpoint.engine,
    artifactUri: v.modelVersion.artifactUri,
    endpointSlug: v.endpoint.slug,
    servedModelName: v.endpoint.model.name,
    versionId: v.id,
    versionLabel: v.modelVersion.version,
    task: v.endpoint.model.task,
    weightBytes: Number(v.modelVersion.weightBytes),
    parameterCount: Number(v.modelVersion.parameterCount),
    attention: v.modelVersion.layers && v.modelVersion.kvHeads && v.modelVersion.headDim ? { layers: v.modelVersion.layers, kvHeads: v.modelVersion.kvHeads, headDim: v.modelVersion.headDim } : null,
    device,
  };
}

/**
 * Starts a replica of an endpoint's version on a device of the endpoint's node pool. The row is
 * written first (pending), so the driver's events always find it; the audit event lands with it.
 */
export async function startReplica(ctx: Omit<ClusterContext, "actor"> & { actor: Actor | null }, input: StartReplicaInput, opts: { placementReason?: string; action?: string; note?: object } = {}) {
  const v = await loadVersion(ctx.db, input.endpointVersionId);
  const { need, scope } = await versionPlacement(ctx.db, v.id);
  const { device, label, memoryBytes, nodeId, gpuIds, migStartSlot, region } = await resolveDevice(ctx.db, v, input.device, need);
  // The endpoint's region rule (KVKK) binds a device chosen by hand as it binds the autoscaler's.
  if (!inRegionRule(region, scope.regionConstraint)) throw new InvalidInputError("device", `${label} is in ${region}, outside the endpoint's region rule ${scope.regionConstraint}*: choose a device in ${scope.regionConstraint}*`);
  const driver = clusterDriver(ctx.drivers);
  const chosen = { device: input.device, label, memoryBytes, region };
  const row = await ctx.db.$transaction(async (tx) => {
    const r = await tx.replica.create({
      data: {
        endpointVersionId: v.id,
        driver: driver.kind,
        nodeId,
        gpuId: gpuIds[0] ?? null,
        migStartSlot,
        tensorParallel: need.parallelism.tensor,
        pipelineParallel: need.parallelism.pipeline,
        gpus: { create: gpuIds.map((gpuId, rank) => ({ gpuId, rank })) },
        region,
        state: "pending",
        createdById: ctx.actor?.userId ?? null,
        placementReason: opts.placementReason ?? (input.device.kind === "group" ? groupPlacementReason(chosen, need, scope, "hand") : placementReason(chosen, need, scope, "hand", 0)),
      },
    });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: opts.action ?? "replica.start", targetType: "replica", targetId: r.id, after: { ...r, endpoint: v.endpoint.slug, version: v.modelVersion.version, device, ...opts.note } });
    return r;
  });
  try {
    const status = await driver.startReplica(specOf(row.id, v, device));
    // The driver's events may already have moved the row on (to ready, even): only a row still pending takes this.
    await applyReplicaStatus(ctx.db, status, { onlyFrom: ["pending"] });
  } catch (e) {
    await applyReplicaStatus(ctx.db, { id: row.id, state: "failed", reason: (e as Error).message, url: null, device, hostname: null, region, expectedReadyAt: null, inFlight: 0 });
    throw e;
  }
  return ctx.db.replica.findUniqueOrThrow({ where: { id: row.id } });
}

/** Registers a server the user runs; Kule health-checks and routes to it but cannot start or stop it. */
export async function registerExternal(ctx: ClusterContext, input: RegisterExternalInput) {
  const v = await loadVersion(ctx.db, input.endpointVersionId);
  // The gateway proxies prompts to it and Prometheus scrapes it: neither may be pointed at metadata or Kule's own ports.
  await checkOutboundUrl(input.url, "url");
  const metricsUrl = input.metricsUrl ?? defaultMetricsUrl(v.endpoint.engine, input.url);
  await checkOutboundUrl(metricsUrl, "metricsUrl");
  const taken = await ctx.db.replica.findFirst({ where: { endpointVersionId: v.id, externalUrl: input.url, state: { notIn: ["stopped"] } } });
  if (taken) throw new ConflictError(`${input.url} is already registered for this version.`, { field: "url" });
  const row = await ctx.db.$transaction(async (tx) => {
    const r = await tx.replica.create({ data: { endpointVersionId: v.id, driver: "external", externalUrl: input.url, metricsUrl, region: input.region, plainHttpAllowed: input.url.startsWith("http://") && input.allowPlainHttp, tensorParallel: input.gpuCount, gpuModel: input.gpuModel ?? null, state: "pending", createdById: ctx.actor.userId } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "replica.register_external", targetType: "replica", targetId: r.id, after: r });
    return r;
  });
  const status = await ctx.drivers.external.startReplica(specOf(row.id, v, { kind: "external", url: input.url, region: input.region }));
  await applyReplicaStatus(ctx.db, status, { onlyFrom: ["pending"] });
  return ctx.db.replica.findUniqueOrThrow({ where: { id: row.id } });
}

/** Also called by the drain worker, with no actor: the stop is then recorded as Kule's own. */
export async function stopReplica(ctx: Omit<ClusterContext, "actor"> & { actor: Actor | null }, input: StopReplicaInput) {
  const row = await ctx.db.replica.findUnique({ where: { id: input.replicaId } });
  if (!row) throw new NotFoundError("Replica");
  if (row.state === "stopped") return row;
  const driver = driverOf(ctx.drivers, row.driver);
  // A replica that already failed may be unknown to the driver: stopping it only records the stop.
  if (row.state !== "failed") await driver.stopReplica(row.id, { drainMs: (input.drainSeconds ?? 0) * 1000 }).catch((e: unknown) => {
    if (!isErrorKind(e, "not_found")) throw e;
  });
  const after = await ctx.db.$transaction(async (tx) => {
    const r = await tx.replica.update({ where: { id: row.id }, data: { state: "stopped", stoppedAt: new Date(), url: null } });
    await refreshVersionState(tx, row.endpointVersionId);
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "replica.stop", targetType: "replica", targetId: row.id, before: row, after: r });
    return r;
  });
  return after;
}

/**
 * Records what a driver reports about a replica (events and reconciliation both land here).
 * `onlyFrom`: apply it only to a row still in one of these states (a status read before events
 * that may have been applied since).
 */
export async function applyReplicaStatus(db: PrismaClient, s: ReplicaStatus, opts: { onlyFrom?: ReplicaState[] } = {}): Promise<void> {
  await db.$transaction(async (tx) => {
    const row = await tx.replica.findUnique({ where: { id: s.id } });
    if (!row || row.state === "stopped") return;
    if (opts.onlyFrom && !opts.onlyFrom.includes(row.state)) return;
    // A stop recorded between the read and this write wins: a late "draining" event from the
    // driver must not bring a stopped replica back (its version would then never retire).
    const { count } = await tx.replica.updateMany({
      where: { id: s.id, state: opts.onlyFrom ? { in: opts.onlyFrom } : { not: "stopped" } },
      data: {
        state: s.state,
        reason: s.reason,
        url: s.state === "stopped" ? null : (s.url ?? row.url),
        // An external server's metrics URL is Kule's own (from its engine); drivers that know better say so.
        metricsUrl: s.metricsUrl ?? row.metricsUrl,
        maxNumSeqs: s.maxNumSeqs ?? row.maxNumSeqs,
        expectedReadyAt: s.expectedReadyAt ? new Date(s.expectedReadyAt) : null,
        readyAt: s.state === "ready" && !row.readyAt ? new Date() : row.readyAt,
        stoppedAt: s.state === "stopped" ? new Date() : row.stoppedAt,
      },
    });
    if (count === 0) return;
    await refreshVersionState(tx, row.endpointVersionId);
  });
}

/**
 * An endpoint version's state follows its replicas while it is being brought up or served:
 * ready when one replica is, loading while one loads, failed when all failed. Draining and retired
 * are set by rollouts and left alone.
 */
export async function refreshVersionState(tx: DbTx, endpointVersionId: string) {
  const v = await tx.endpointVersion.findUnique({ where: { id: endpointVersionId }, include: { replicas: { where: { state: { not: "stopped" } }, select: { state: true } } } });
  if (!v || v.state === "draining" || v.state === "retired") return;
  const states = new Set(v.replicas.map((r) => r.state));
  const next = states.has("ready") ? "ready" : states.has("loading") || states.has("pending") ? "loading" : states.has("failed") ? "failed" : v.weight > 0 ? v.state : "pending";
  if (next !== v.state) await tx.endpointVersion.update({ where: { id: v.id }, data: { state: next } });
}

/**
 * Brings the database in line with what the cluster driver reports: after a restart of the app,
 * of the simulator, or of the connection to the API server. Replicas the cluster no longer knows
 * were lost with it.
 */
export async function reconcileReplicas(db: PrismaClient, drivers: Drivers): Promise<{ updated: number; lost: number }> {
  const cluster = clusterDriver(drivers);
  const live = await cluster.listReplicas();
  const byId = new Map(live.map((r) => [r.id, r]));
  const rows = await db.replica.findMany({ where: { driver: cluster.kind, state: { in: ["pending", "loading", "ready", "draining"] } } });
  let lost = 0;
  for (const row of rows) {
    const s = byId.get(row.id);
    if (s) await applyReplicaStatus(db, s);
    else {
      lost++;
      // Gone with the simulator's process: recorded as stopped (with why), so restarts do not pile up failed rows.
      await applyReplicaStatus(db, { id: row.id, state: "stopped", reason: `Lost: the cluster no longer runs this replica (${cluster.kind === "sim" ? "the simulator restarted" : "Kubernetes has no pod for it"}).`, url: null, device: { kind: "cpu", hostname: "" }, hostname: null, region: row.region, expectedReadyAt: null, inFlight: 0 });
    }
  }
  return { updated: rows.length - lost, lost };
}
