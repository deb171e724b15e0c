import type { PrismaClient } from "../db/generated/client.ts";
import type { Actor } from "../auth/actor.ts";
import type { ClusterContext, Drivers } from "./drivers.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.ts";
import { startReplica, stopReplica } from "./replicas.ts";
import { applyMigLayout } from "./operations.ts";
import { planMigChange, type MigChangeSpec, type MigPlan } from "./mig-plan.ts";
import { PROPAGATION_MS } from "../rollouts/drain.ts";
import type { MigChangeInput, MigChangeRefInput } from "./schemas.ts";
import type { Locale } from "../shared/i18n/locales.ts";
import { translateServerMessage } from "../shared/i18n/server-messages.ts";

/** Who the audit log shows for the steps Kule carries out by itself. */
const MIG_STEPS: Actor = { userId: "system:mig-change", email: "mig-change@kule.local", name: "Kule MIG change", role: "admin", tenantId: null };

export const MIG_STEP_NAMES = ["start elsewhere", "wait ready", "shift traffic and drain", "re-partition", "move back", "wait ready on the new layout", "drain the temporary replicas"] as const;
/** Past this step, nothing can be undone midway: the old replicas are being drained, then the GPU re-partitioned. */
const LAST_CANCELLABLE = 1;
const DRAIN_S = 60;

interface Started {
  moved?: Record<string, string>;
  back?: Record<string, string>;
}

/** The plan as the page reads it: its refusals, reasons and missing capacity in the reader's language. */
export async function previewMigChange({ db, locale }: ClusterContext & { locale?: Locale }, input: MigChangeInput) {
  return migPlanInLanguage(locale, await planMigChange(db, input.changes));
}

export function migPlanInLanguage(locale: Locale | undefined, plan: MigPlan): MigPlan {
  if (!locale || locale === "en") return plan;
  const say = (text: string) => translateServerMessage(locale, text);
  const place = <T extends { reason: string } | null>(p: T): T => (p ? { ...p, reason: say(p.reason) } : p);
  return {
    ...plan,
    gpus: plan.gpus.map((g) => ({ ...g, problems: g.problems.map(say) })),
    moves: plan.moves.map((m) => ({ ...m, to: place(m.to), back: place(m.back), why: m.why && say(m.why) })),
    capacityMissing: { ...plan.capacityMissing, text: say(plan.capacityMissing.text) },
    refused: plan.refused && say(plan.refused),
  };
}

/** Applies a previewed change as steps; refused, with the preview's reason, when a replica fits nowhere else. */
export async function startMigChange(ctx: ClusterContext, input: MigChangeInput) {
  const plan = await planMigChange(ctx.db, input.changes);
  if (plan.refused) throw new InvalidInputError("changes", plan.refused);
  const busy = await ctx.db.migChange.findFirst({ where: { state: "running" } });
  if (busy && (busy.changes as unknown as MigChangeSpec[]).some((c) => input.changes.some((x) => x.gpuId === c.gpuId))) throw new ConflictError("Another MIG change of one of these GPUs is under way: wait for it or cancel it first.");
  return ctx.db.$transaction(async (tx) => {
    const c = await tx.migChange.create({ data: { changes: input.changes as object[], plan: plan as unknown as object, moveBack: input.moveBack, createdById: ctx.actor.userId, log: [{ step: 0, at: new Date().toISOString(), text: `applied: ${plan.gpus.map((g) => `${g.label} → ${g.after.join(" + ") || "MIG off"}`).join("; ")}` }] } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "gpu.mig.change.start", targetType: "mig_change", targetId: c.id, after: { gpus: plan.gpus, moves: plan.moves.map((m) => ({ replica: m.replicaId, from: m.from, to: m.to?.label, back: input.moveBack ? m.back?.label : undefined })), capacityMissing: plan.capacityMissing.text } });
    return c;
  });
}

export async function cancelMigChange(ctx: ClusterContext, { id }: MigChangeRefInput) {
  const c = await ctx.db.migChange.findUnique({ where: { id } });
  if (!c) throw new NotFoundError("MIG change");
  if (c.state !== "running") throw new ConflictError(`This MIG change is ${c.state} already.`);
  if (c.step > LAST_CANCELLABLE && c.step < 4) throw new ConflictError(`Step "${MIG_STEP_NAMES[c.step]}" is under way and cannot be undone midway; the change can be cancelled again once the GPU is re-partitioned (before moving back).`);
  const started = c.started as Started;
  // Undo what this change started and has not handed traffic to: the replicas where they were keep serving.
  const undo = c.step <= LAST_CANCELLABLE ? Object.values(started.moved ?? {}) : Object.keys(started.back ?? {});
  for (const replicaId of undo) await stopReplica({ ...ctx, actor: MIG_STEPS }, { replicaId, drainSeconds: 0 }).catch(() => undefined);
  return ctx.db.$transaction(async (tx) => {
    const { count } = await tx.migChange.updateMany({ where: { id, step: c.step, state: "running" }, data: { state: "cancelled", endedAt: new Date(), log: [...(c.log as object[]), { step: c.step, at: new Date().toISOString(), text: `cancelled by ${ctx.actor.email}; ${undo.length} replica(s) it had started stopped` }] } });
    if (!count) throw new ConflictError("The change moved on meanwhile: reload and try again.");
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "gpu.mig.change.cancel", targetType: "mig_change", targetId: id, after: { step: MIG_STEP_NAMES[c.step], stopped: undo } });
    return tx.migChange.findUniqueOrThrow({ where: { id } });
  });
}

export async function listMigChanges({ db }: ClusterContext) {
  const rows = await db.migChange.findMany({ orderBy: { createdAt: "desc" }, take: 10 });
  return rows.map((c) => ({ ...c, plan: c.plan as unknown as MigPlan, log: c.log as { step: number; at: string; text: string }[], steps: MIG_STEP_NAMES.slice(0, c.moveBack ? 7 : 4) as string[] }));
}

/** The steps, log and failure in the reader's language: stored in English (the audit log's), shown as the page reads. */
export function migChangesInLanguage(locale: Locale | undefined, rows: Awaited<ReturnType<typeof listMigChanges>>) {
  if (!locale || locale === "en") return rows;
  const say = (text: string) => translateServerMessage(locale, text);
  return rows.map((c) => ({ ...c, plan: migPlanInLanguage(locale, c.plan), reason: c.reason && say(c.reason), steps: c.steps.map(say), log: c.log.map((l) => ({ ...l, text: say(l.text) })) }));
}

/** Moves every running MIG change on by at most one step per tick; restart-safe (its state is in the row). */
export class MigChangeWorker {
  constructor(private readonly ctx: { db: PrismaClient; drivers: Drivers }) {}

  async tick(): Promise<void> {
    for (const c of await this.ctx.db.migChange.findMany({ where: { state: "running" }, orderBy: { createdAt: "asc" } })) {
      try {
        await this.advance(c);
      } catch (e) {
        await this.end(c.id, c.step, "failed", `step "${MIG_STEP_NAMES[c.step]}" failed: ${(e as Error).message}`);
      }
    }
  }

  private get cctx(): ClusterContext {
    return { db: this.ctx.db as ClusterContext["db"], drivers: this.ctx.drivers, actor: MIG_STEPS, ip: null };
  }

  private async advance(c: Awaited<ReturnType<PrismaClient["migChange"]["findUniqueOrThrow"]>>) {
    const { db } = this.ctx;
    const plan = c.plan as unknown as MigPlan;
    const started = { moved: {}, back: {}, ...(c.started as Started) } as Required<Started>;
    const save = () => db.migChange.update({ where: { id: c.id }, data: { started: started as object } });
    const states = async (ids: string[]) => db.replica.findMany({ where: { id: { in: ids } }, select: { id: true, state: true, reason: true } });
    switch (c.step) {
      case 0:
        for (const m of plan.moves) {
          if (started.moved[m.replicaId] || !m.to) continue;
          const r = await startReplica(this.cctx, { endpointVersionId: m.endpointVersionId, device: m.to.device }, { placementReason: m.to.reason, note: { migChange: c.id } });
          started.moved[m.replicaId] = r.id;
          await save();
        }
        return this.next(c, 1, `${plan.moves.length} replica(s) starting elsewhere: ${plan.moves.map((m) => `${m.endpoint} ${m.version} → ${m.to?.label}`).join(", ") || "none"}`);
      case 1:
      case 5: {
        const ids = Object.values(c.step === 1 ? started.moved : started.back);
        const rows = await states(ids);
        const bad = rows.find((r) => r.state === "failed" || r.state === "stopped");
        if (bad) throw new Error(`replica ${bad.id} did not become ready: ${bad.reason ?? bad.state}`);
        if (rows.some((r) => r.state !== "ready")) return;
        return this.next(c, c.step + 1, `${ids.length} replica(s) ready`);
      }
      case 2:
      case 6: {
        // First the replicas on the GPUs being changed; on the way back, the temporary ones.
        const old = c.step === 2 ? plan.moves.map((m) => m.replicaId) : Object.values(started.back);
        await this.drain(old);
        return this.next(c, c.step === 2 ? 3 : 7, `traffic shifted; ${old.length} replica(s) drained (in-flight streams finished) and stopped`);
      }
      case 3:
        for (const g of c.changes as unknown as MigChangeSpec[]) await applyMigLayout(this.cctx, g);
        return this.next(c, c.moveBack ? 4 : 7, `re-partitioned: ${plan.gpus.map((g) => `${g.label} ${g.after.join(" + ") || "MIG off"}`).join("; ")}`);
      case 4:
        for (const m of plan.moves) {
          const temp = started.moved[m.replicaId];
          if (!temp || !m.back || Object.values(started.back).includes(temp)) continue;
          const r = await startReplica(this.cctx, { endpointVersionId: m.endpointVersionId, device: m.back.device }, { placementReason: m.back.reason, note: { migChange: c.id } });
          started.back[r.id] = temp;
          await save();
        }
        return this.next(c, 5, `${Object.keys(started.back).length} replica(s) starting on the new layout`);
    }
  }

  /** Out of the gateways' rotation first, then stopped once their in-flight calls are done. */
  private async drain(ids: string[]) {
    const { db } = this.ctx;
    await db.replica.updateMany({ where: { id: { in: ids }, state: "ready" }, data: { state: "draining" } });
    await new Promise((r) => setTimeout(r, PROPAGATION_MS));
    await Promise.all(ids.map((replicaId) => stopReplica({ ...this.cctx }, { replicaId, drainSeconds: DRAIN_S })));
  }

  private async next(c: { id: string; step: number; log: unknown; moveBack: boolean }, step: number, text: string) {
    const done = step >= 7 || (!c.moveBack && step >= 4);
    await this.ctx.db.$transaction(async (tx) => {
      await tx.migChange.update({ where: { id: c.id }, data: { step: done ? c.step : step, state: done ? "done" : "running", endedAt: done ? new Date() : null, log: [...(c.log as object[]), { step: c.step, at: new Date().toISOString(), text: `${MIG_STEP_NAMES[c.step]}: ${text}` }] } });
      await recordAudit(tx, { actor: MIG_STEPS, action: "gpu.mig.change.step", targetType: "mig_change", targetId: c.id, after: { step: MIG_STEP_NAMES[c.step], text, done } });
    });
  }

  private async end(id: string, step: number, state: "failed", reason: string) {
    await this.ctx.db.$transaction(async (tx) => {
      await tx.migChange.update({ where: { id }, data: { state, reason, endedAt: new Date() } });
      await recordAudit(tx, { actor: MIG_STEPS, action: "gpu.mig.change.failed", targetType: "mig_change", targetId: id, after: { step: MIG_STEP_NAMES[step], reason } });
    });
  }
}

export function startMigChangeWorker(ctx: { db: PrismaClient; drivers: Drivers }, intervalMs = 1000): () => Promise<void> {
  const worker = new MigChangeWorker(ctx);
  let busy: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (busy) return;
    busy = worker.tick().catch((e) => console.error(`[mig-change] tick failed: ${(e as Error).message}`)).finally(() => (busy = null));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await busy;
  };
}
