import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { NotFoundError } from "../errors.ts";
import type { SpecialMarkInput } from "./schemas.ts";
import { pgPool } from "../db/pg-pool.ts";
import { pendingMoves, pgQuery, type Query } from "./ring-move.ts";

/**
 * Marks a tenant's or an endpoint's calls as special categories of personal data (KVKK Art. 6).
 * Their rows are then kept under the special ring's keys, masked for staff without the explicit
 * permission, kept no longer than the special ceiling, and (tenants) served in Turkey unless the
 * data subjects' explicit consent to transfer abroad is recorded. The gateways reload on the change.
 * Rows already written move with the marking: the re-key (every 5 minutes, or by hand) moves their
 * client IPs to the ring they now belong to; the audit event records how many it has to move.
 */
export async function markSpecial(ctx: ActorContext, input: SpecialMarkInput) {
  return ctx.db.$transaction(async (tx) => {
    const query: Query = (sql, params) => tx.$queryRawUnsafe(sql, ...params);
    if (input.tenantId) {
      const before = await tx.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true, specialCategory: true, specialAbroadConsentRef: true } });
      if (!before) throw new NotFoundError("Tenant");
      const after = await tx.tenant.update({
        where: { id: input.tenantId },
        data: { specialCategory: input.category, specialAbroadConsentRef: input.category ? (input.abroadConsentRef ?? null) : null },
        select: { id: true, specialCategory: true, specialAbroadConsentRef: true },
      });
      const moves = await pendingMoves(query, { tenantId: after.id });
      await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.special.mark", targetType: "tenant", targetId: after.id, before, after: { ...after, rekeyScheduled: moves } });
      return after;
    }
    const before = await tx.endpoint.findUnique({ where: { id: input.endpointId! }, select: { id: true, specialCategory: true } });
    if (!before) throw new NotFoundError("Endpoint");
    const after = await tx.endpoint.update({ where: { id: before.id }, data: { specialCategory: input.category }, select: { id: true, specialCategory: true } });
    const moves = await pendingMoves(query, { endpointId: after.id });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.special.mark", targetType: "endpoint", targetId: after.id, before, after: { ...after, rekeyScheduled: moves } });
    return after;
  });
}

/** What is marked, for the KVKK page, with the special ceiling on retention and the rows still to move between rings. */
export async function listSpecial({ db }: ActorContext) {
  const [tenants, endpoints, settings, moves] = await Promise.all([
    db.tenant.findMany({ where: { specialCategory: { not: null } }, select: { id: true, name: true, slug: true, specialCategory: true, specialAbroadConsentRef: true }, orderBy: { slug: "asc" } }),
    db.endpoint.findMany({ where: { specialCategory: { not: null } }, select: { id: true, name: true, slug: true, specialCategory: true }, orderBy: { slug: "asc" } }),
    db.kvkkSettings.findUniqueOrThrow({ where: { id: "singleton" }, select: { specialRetentionMaxDays: true } }),
    pendingMoves(pgQuery(pgPool(db))),
  ]);
  return { tenants, endpoints, retentionMaxDays: settings.specialRetentionMaxDays, moves };
}
