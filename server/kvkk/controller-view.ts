import type { ActorContext } from "../auth/actor.ts";
import { ownTenant } from "../auth/scope.ts";
import { pgPool } from "../db/pg-pool.ts";
import { NotFoundError } from "../errors.ts";
import { residencyMap } from "./residency.ts";
import { effectiveRetentionDays, limitsOf, specialCeilingDays } from "./retention-rule.ts";

const DAY = 86_400_000;

/**
 * What a tenant (the data controller) sees of Kule's processing for it: where its calls were
 * served in the last three months, the transfer safeguards recorded for it, and every time staff
 * read its call log (an opened call, or a search or export that could reach its rows).
 */
export async function controllerView(ctx: ActorContext) {
  const tenantId = ownTenant(ctx.actor);
  if (!tenantId) throw new NotFoundError("Tenant");
  const to = new Date(Date.now() + DAY);
  const from = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() - 2, 1));
  const [tenant, safeguards, residency, staffReads, retention, settings, specialEndpoints] = await Promise.all([
    ctx.db.tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { name: true, slug: true, kvkk: true, verbisNumber: true, processingAgreementRef: true, processingAgreementSignedAt: true, specialCategory: true, specialAbroadConsentRef: true } }),
    ctx.db.transferSafeguard.findMany({ where: { tenantId }, select: { id: true, destination: true, importer: true, mechanism: true, reference: true, signedAt: true, notifiedAt: true, revokedAt: true }, orderBy: { signedAt: "desc" } }),
    residencyMap(ctx, { from, to, tenantId }),
    pgPool(ctx.db).query<{ at: Date; actorEmail: string | null; role: string; action: string; targetId: string | null }>(
      `SELECT e.at AT TIME ZONE 'UTC' AS at, e."actorEmail", m.role, e.action, e."targetId" FROM "AuditEvent" e JOIN "Membership" m ON m."userId" = e."actorId"
        WHERE m.role <> 'tenant' AND e.at > (now() AT TIME ZONE 'UTC') - interval '90 days'
          AND ((e.action = 'calllog.read' AND EXISTS (SELECT 1 FROM "CallLog" c WHERE c."requestId" = e."targetId" AND c."tenantId" = $1))
            OR (e.action IN ('calllog.search', 'calllog.export') AND coalesce(e.after->'filter'->>'tenantId', $1) = $1)
            OR (e.action = 'kvkk.subject.find' AND e.after->>'tenantId' = $1))
        ORDER BY e.at DESC LIMIT 100`,
      [tenantId],
    ),
    ctx.db.tenantRetention.findUnique({ where: { tenantId } }),
    ctx.db.kvkkSettings.findUniqueOrThrow({ where: { id: "singleton" }, select: { defaultRetentionDays: true, trafficLogMinDays: true, specialRetentionMaxDays: true } }),
    // Endpoints marked special that this tenant called within the retention: their calls are kept no longer than the ceiling.
    pgPool(ctx.db).query<{ slug: string }>(`SELECT e.slug FROM "Endpoint" e WHERE e."specialCategory" IS NOT NULL AND EXISTS (SELECT 1 FROM "CallLog" c WHERE c."endpointId" = e.id AND c."tenantId" = $1) ORDER BY 1`, [tenantId]),
  ]);
  // How long its call log is kept: its own choice, within the platform's period, the special ceiling and any legal minimum.
  const limits = limitsOf(settings);
  const ceiling = specialCeilingDays(limits);
  const ownRetention = {
    days: retention?.days ?? null,
    method: retention?.method ?? "delete",
    effectiveDays: effectiveRetentionDays(retention?.days ?? null, !!tenant.specialCategory, limits),
    platformDays: tenant.specialCategory ? Math.min(settings.defaultRetentionDays, ceiling) : settings.defaultRetentionDays,
    legalMinDays: settings.trafficLogMinDays,
    /** Its calls carry special categories (KVKK Art. 6): the ceiling is its upper bound. */
    special: !!tenant.specialCategory,
    specialCeilingDays: tenant.specialCategory || specialEndpoints.rows.length ? ceiling : null,
    specialEndpoints: specialEndpoints.rows.map((e) => e.slug),
  };
  return { tenant, safeguards, residency: residency.cells, staffReads: staffReads.rows, retention: ownRetention };
}
