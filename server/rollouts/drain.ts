import type { PrismaClient } from "../db/generated/client.ts";
import type { Drivers } from "../cluster/drivers.ts";
import { recordAudit } from "../audit/record.ts";
import { stopReplica } from "../cluster/replicas.ts";

/**
 * Time for every gateway to apply a weight of 0 (they reload within a second of the change)
 * before a draining version's replicas are told to stop: a request routed just before the change
 * still reaches a replica that serves it.
 */
export const PROPAGATION_MS = 1500;

/**
 * Moves versions along the end of their life: a blue-green version whose keep-warm time is up
 * starts draining; a draining version's replicas are stopped (each finishing its in-flight
 * requests within the version's drain timeout); a draining version with no replica left is
 * retired. Idempotent and restart-safe: everything it needs is in the database.
 */
export class DrainWorker {
  /** Replicas being stopped by this process: a stop with a drain can take minutes. */
  private readonly stopping = new Map<string, Promise<void>>();

  constructor(private readonly ctx: { db: PrismaClient; drivers: Drivers }) {}

  async tick(now = Date.now()): Promise<void> {
    const { db } = this.ctx;
    const cooled = await db.endpointVersion.findMany({ where: { keepWarmUntil: { lte: new Date(now) }, weight: 0, state: { in: ["ready", "loading", "pending", "failed"] } }, include: { modelVersion: true } });
    for (const v of cooled) {
      await db.$transaction(async (tx) => {
        const { count } = await tx.endpointVersion.updateMany({ where: { id: v.id, weight: 0, keepWarmUntil: v.keepWarmUntil }, data: { state: "draining", drainStartedAt: new Date(now), keepWarmUntil: null } });
        if (count) await recordAudit(tx, { actor: null, action: "endpoint.version.keep_warm_ended", targetType: "endpoint", targetId: v.endpointId, after: { version: v.modelVersion.version } });
      });
    }
    const draining = await db.endpointVersion.findMany({
      where: { state: "draining", drainStartedAt: { lte: new Date(now - PROPAGATION_MS) } },
      include: { modelVersion: true, replicas: { where: { state: { not: "stopped" } }, select: { id: true } } },
    });
    for (const v of draining) {
      if (v.weight > 0) continue; // given traffic again by hand: not ours to stop
      if (v.replicas.length === 0) {
        await db.$transaction(async (tx) => {
          const { count } = await tx.endpointVersion.updateMany({ where: { id: v.id, state: "draining" }, data: { state: "retired", drainStartedAt: null } });
          if (count) await recordAudit(tx, { actor: null, action: "endpoint.version.retire", targetType: "endpoint", targetId: v.endpointId, after: { version: v.modelVersion.version } });
        });
        continue;
      }
      for (const r of v.replicas) {
        if (this.stopping.has(r.id)) continue;
        const p: Promise<void> = stopReplica({ ...this.ctx, actor: null, ip: null }, { replicaId: r.id, drainSeconds: v.drainTimeoutSeconds ?? 30 })
          .then(() => undefined)
          .catch((e) => console.error(`[drain] stopping replica ${r.id} failed: ${(e as Error).message}`))
          .finally(() => this.stopping.delete(r.id));
        this.stopping.set(r.id, p);
      }
    }
  }

  /** Waits for the stops in flight (tests, and a graceful shutdown). */
  async settle(): Promise<void> {
    await Promise.all(this.stopping.values());
  }
}
