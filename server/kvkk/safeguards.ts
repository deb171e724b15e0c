import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.ts";
import { businessDaysAfter } from "./business-days.ts";
import type { SafeguardCreateInput, SafeguardNotifyInput, SafeguardRevokeInput } from "./schemas.ts";

/** A standard contract is notified to the Authority within 5 business days of signing (KVKK Art. 9(5)). */
export const NOTIFY_BUSINESS_DAYS = 5;

export type NotificationState = "not_required" | "done" | "due" | "overdue";

export function notificationState(s: { mechanism: string; notifiedAt: Date | null; notificationDueAt: Date | null }, now = new Date()): NotificationState {
  if (s.mechanism !== "standard_contract") return "not_required";
  if (s.notifiedAt) return "done";
  return s.notificationDueAt && s.notificationDueAt < now ? "overdue" : "due";
}

/** Every safeguard, newest first, with where its notification to the Authority stands. */
export async function listSafeguards({ db }: ActorContext) {
  const [rows, tenants] = await Promise.all([db.transferSafeguard.findMany({ orderBy: { createdAt: "desc" } }), db.tenant.findMany({ select: { id: true, slug: true } })]);
  const slug = new Map(tenants.map((t) => [t.id, t.slug]));
  const now = new Date();
  return rows.map((s) => ({ ...s, tenantSlug: slug.get(s.tenantId) ?? null, notification: notificationState(s, now), inForce: !s.revokedAt && s.signedAt <= now }));
}

export async function createSafeguard(ctx: ActorContext, input: SafeguardCreateInput) {
  return ctx.db.$transaction(async (tx) => {
    const tenant = await tx.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true, kvkk: true, slug: true } });
    if (!tenant) throw new NotFoundError("Tenant");
    if (tenant.kvkk) throw new InvalidInputError("tenantId", `${tenant.slug}'s contract keeps its data in Turkey (Turkey only): clear that on the tenant first if it now agrees to a transfer.`);
    const notificationDueAt = input.mechanism === "standard_contract" ? businessDaysAfter(input.signedAt, NOTIFY_BUSINESS_DAYS) : null;
    const row = await tx.transferSafeguard.create({
      data: { ...input, notifiedAt: input.notifiedAt ?? null, notificationDueAt, createdByEmail: ctx.actor.email },
    });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.safeguard.create", targetType: "transfer_safeguard", targetId: row.id, after: row });
    return row;
  });
}

/** Changes a safeguard only if nobody changed it since the caller read it. */
async function change(ctx: ActorContext, id: string, expectedUpdatedAt: Date, action: string, data: { notifiedAt?: Date; revokedAt?: Date }) {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.transferSafeguard.findUnique({ where: { id } });
    if (!before) throw new NotFoundError("Transfer safeguard");
    if (before.revokedAt) throw new ConflictError("This safeguard was already revoked.", { current: before });
    const { count } = await tx.transferSafeguard.updateMany({ where: { id, updatedAt: expectedUpdatedAt }, data });
    if (!count) throw new ConflictError("Someone changed this safeguard since you opened it; reload and try again.", { current: before });
    const after = await tx.transferSafeguard.findUniqueOrThrow({ where: { id } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action, targetType: "transfer_safeguard", targetId: id, before, after });
    return after;
  });
}

export async function markNotified(ctx: ActorContext, input: SafeguardNotifyInput) {
  const s = await ctx.db.transferSafeguard.findUnique({ where: { id: input.id } });
  if (s && input.notifiedAt < s.signedAt) throw new InvalidInputError("notifiedAt", "cannot be before the contract was signed");
  return change(ctx, input.id, input.expectedUpdatedAt, "kvkk.safeguard.notified", { notifiedAt: input.notifiedAt });
}

/** From now on the gateway keeps the tenant's calls out of that country (it reloads on the change). */
export function revokeSafeguard(ctx: ActorContext, input: SafeguardRevokeInput) {
  return change(ctx, input.id, input.expectedUpdatedAt, "kvkk.safeguard.revoke", { revokedAt: new Date() });
}
