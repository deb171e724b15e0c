import type { PrismaClient } from "../db/generated/client.ts";
import type { Drivers } from "../cluster/drivers.ts";
import type { Actor } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { placeReplicas } from "../cluster/placement.ts";
import { groupSize, parallelismText } from "../shared/memory-rule.ts";
import { startReplica, stopReplica } from "../cluster/replicas.ts";
import { PROPAGATION_MS } from "../rollouts/drain.ts";
import { decide, type AutoscaleSignalKind, type Decision, type Recommendation } from "./decide.ts";

/** Who the audit log shows for the autoscaler's own starts, stops and decisions. */
export const AUTOSCALER: Actor = { userId: "system:autoscaler", email: "autoscaler@kule.local", name: "Kule autoscaler", role: "admin", tenantId: null };

/** A wake older than this is stale: the gateway that asked has given up on those calls. */
const WAKE_FRESH_MS = 30_000;
const SAMPLE_EVERY_MS = 15_000;
const SAMPLES_KEPT_MS = 6 * 3600_000;
/** In-flight streams of a replica scaled down get this long to finish. */
const SCALE_DOWN_DRAIN_S = 60;

export type SignalReader = (signal: AutoscaleSignalKind, versionId: string, ready: number) => Promise<number | null>;

export interface Sample {
  at: number;
  ready: number;
  starting: number;
  value: number | null;
}

/**
 * One pass of the autoscaler over every enabled policy: read what runs and the signal, decide
 * (decide.ts), carry it out, and record it. Starts go through the same placement and start as a
 * manual one; stops first take the replica out of the gateways' rotation, then drain it.
 */
export class Autoscaler {
  private readonly stopping = new Map<string, Promise<void>>();

  constructor(private readonly ctx: { db: PrismaClient; drivers: Drivers; signal: SignalReader }) {}

  async tick(now = Date.now()): Promise<void> {
    const { db } = this.ctx;
    const policies = await db.autoscalePolicy.findMany({
      where: { enabled: true, endpointVersion: { state: { notIn: ["draining", "retired"] }, endpoint: { retiredAt: null } } },
      include: { endpointVersion: { include: { replicas: { where: { state: { in: ["pending", "loading", "ready"] } }, orderBy: { createdAt: "asc" }, select: { id: true, state: true, tensorParallel: true, pipelineParallel: true } } } } },
    });
    for (const p of policies) {
      try {
        await this.one(p, now);
      } catch (e) {
        console.error(`[autoscale] version ${p.endpointVersionId}: ${(e as Error).message}`);
      }
    }
  }

  private async one(p: Awaited<ReturnType<PrismaClient["autoscalePolicy"]["findMany"]>>[number] & { endpointVersion: { id: string; endpointId: string; replicas: { id: string; state: string; tensorParallel: number; pipelineParallel: number }[] } }, now: number) {
    const { db } = this.ctx;
    const v = p.endpointVersion;
    const live = v.replicas.filter((r) => !this.stopping.has(r.id));
    const ready = live.filter((r) => r.state === "ready").length;
    const starting = live.length - ready;
    const value = await this.ctx.signal(p.signal, v.id, ready);
    const wake = !!p.wakeRequestedAt && p.wakeRequestedAt.getTime() > now - WAKE_FRESH_MS;
    const judging = await db.rollout.count({ where: { endpointId: v.endpointId, state: "running", OR: [{ canaryVersionId: v.id }, { stableVersionId: v.id }] } });
    const view = { now, ready, starting, value, wake, canaryJudging: judging > 0, history: p.history as unknown as Recommendation[] };
    let d = decide(p, { ...view, placeable: Number.MAX_SAFE_INTEGER });
    let placed: Awaited<ReturnType<typeof placeReplicas>> | null = null;
    if (d.action === "scale_up") {
      placed = await placeReplicas(db, v.id, d.count);
      d = decide(p, { ...view, placeable: placed.chosen.length });
    }
    if (d.action === "scale_up" && placed) {
      for (const dev of placed.chosen.slice(0, d.count)) await startReplica({ db, drivers: this.ctx.drivers, actor: AUTOSCALER, ip: null }, { endpointVersionId: v.id, device: dev.device }, { placementReason: dev.reason, note: { autoscale: d.reason } });
    } else if (d.action === "scale_down") {
      // The newest ready replicas go first: the oldest have the warmest caches.
      for (const r of live.filter((x) => x.state === "ready").slice(-d.count)) this.drainAndStop(r.id);
    }
    // A group replica moves whole: say how many GPUs each step takes or gives back.
    const split = placed?.need.parallelism ?? (live[0] ? { tensor: live[0].tensorParallel, pipeline: live[0].pipelineParallel } : null);
    const gpus = split && d.action !== "hold" && groupSize(split) > 1 ? `each replica is ${parallelismText(split)} over ${groupSize(split)} GPUs, ${d.count * groupSize(split)} GPUs in this step` : null;
    await this.record(p, gpus ? { ...d, reason: `${d.reason}; ${gpus}` } : d, { ready, starting, value }, now, placed?.why ?? null);
  }

  /** Out of rotation first (the gateways reload within a second), then stopped once in-flight calls finish. */
  private drainAndStop(replicaId: string) {
    const { db, drivers } = this.ctx;
    const p = (async () => {
      await db.replica.updateMany({ where: { id: replicaId, state: "ready" }, data: { state: "draining" } });
      await new Promise((r) => setTimeout(r, PROPAGATION_MS));
      await stopReplica({ db, drivers, actor: AUTOSCALER, ip: null }, { replicaId, drainSeconds: SCALE_DOWN_DRAIN_S });
    })()
      .catch((e) => console.error(`[autoscale] stopping replica ${replicaId} failed: ${(e as Error).message}`))
      .finally(() => this.stopping.delete(replicaId));
    this.stopping.set(replicaId, p);
  }

  private async record(p: { id: string; endpointVersionId: string; lastDecision: unknown; samples: unknown; wakeRequestedAt: Date | null }, d: Decision, seen: Omit<Sample, "at">, now: number, poolWhy: string | null) {
    const last = p.lastDecision as { action: string; reason: string; poolLimited?: boolean } | null;
    // Every change is audited; a hold only when it is news (the pool or a canary stopping the autoscaler, said once).
    const kind = (x: { action: string; reason: string; poolLimited?: boolean }) => `${x.action}:${x.poolLimited ? "pool" : /canary/.test(x.reason) ? "canary" : ""}`;
    const audited = d.action !== "hold" || ((d.poolLimited || /canary/.test(d.reason)) && (!last || kind(last) !== kind(d)));
    const decision = { at: new Date(now).toISOString(), action: d.action, count: d.count, desired: d.desired, recommended: d.recommended, ...seen, reason: poolWhy && d.poolLimited ? `${d.reason} (${poolWhy})` : d.reason, poolLimited: d.poolLimited };
    let samples = (p.samples as Sample[]).filter((s) => s.at > now - SAMPLES_KEPT_MS);
    if (!samples.length || now - samples.at(-1)!.at >= SAMPLE_EVERY_MS || d.action !== "hold") samples = [...samples, { at: now, ...seen }];
    await this.ctx.db.$transaction(async (tx) => {
      await tx.autoscalePolicy.update({
        where: { id: p.id },
        data: { history: d.history as object[], samples: samples as object[], lastDecision: audited || !last || last.reason !== decision.reason ? decision : undefined, wakeRequestedAt: d.action === "scale_up" ? null : undefined },
      });
      if (audited) await recordAudit(tx, { actor: AUTOSCALER, action: "autoscale.decision", targetType: "endpoint_version", targetId: p.endpointVersionId, after: decision });
    });
  }

  async settle() {
    await Promise.all(this.stopping.values());
  }
}

/** The loop beside the rollout worker's (server/background.ts): ticks never overlap. */
export function startAutoscaler(ctx: { db: PrismaClient; drivers: Drivers; signal: SignalReader }, intervalMs = 2000): { stop: () => Promise<void>; autoscaler: Autoscaler } {
  const autoscaler = new Autoscaler(ctx);
  let busy: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (busy) return;
    busy = autoscaler.tick().catch((e) => console.error(`[autoscale] tick failed: ${(e as Error).message}`)).finally(() => (busy = null));
  }, intervalMs);
  timer.unref();
  return {
    autoscaler,
    stop: async () => {
      clearInterval(timer);
      await busy;
      await autoscaler.settle();
    },
  };
}
