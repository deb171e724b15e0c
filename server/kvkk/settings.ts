import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import { ownTenant } from "../auth/scope.ts";
import type { OwnRetentionInput, TenantRetentionInput, UpdateSettingsInput } from "./schemas.ts";
import { effectiveRetentionDays, limitsOf, specialCeilingDays } from "./retention-rule.ts";

export async function getSettings({ db }: ActorContext) {
  const [settings, tenants, specialEndpoints] = await Promise.all([
    db.kvkkSettings.findUniqueOrThrow({ where: { id: "singleton" } }),
    db.tenant.findMany({ select: { id: true, name: true, slug: true, kvkk: true, specialCategory: true }, orderBy: { slug: "asc" } }),
    db.endpoint.findMany({ where: { specialCategory: { not: null } }, select: { slug: true }, orderBy: { slug: "asc" } }),
  ]);
  const own = new Map((await db.tenantRetention.findMany()).map((r) => [r.tenantId, r]));
  const next = settings.lastDestructionAt ? new Date(settings.lastDestructionAt.getTime() + settings.destructionIntervalDays * 86_400_000) : null;
  const limits = limitsOf(settings);
  return {
    settings,
    nextDestructionAt: next,
    /** Special-category tenants' and endpoints' calls are kept no longer than this (KVKK Art. 6). */
    specialCeilingDays: specialCeilingDays(limits),
    specialEndpoints: specialEndpoints.map((e) => e.slug),
    tenants: tenants.map((t) => ({ ...t, retentionDays: own.get(t.id)?.days ?? null, method: own.get(t.id)?.method ?? "delete", effectiveDays: effectiveRetentionDays(own.get(t.id)?.days ?? null, !!t.specialCategory, limits) })),
  };
}

export async function updateSettings(ctx: ActorContext, input: UpdateSettingsInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.kvkkSettings.findUniqueOrThrow({ where: { id: "singleton" } });
    const min = input.trafficLogMinDays === undefined ? before.trafficLogMinDays : input.trafficLogMinDays;
    if (min && input.defaultRetentionDays < min) throw new InvalidInputError("defaultRetentionDays", `at least ${min} days: the call log holds traffic information Law 5651 keeps that long`);
    const after = await tx.kvkkSettings.update({ where: { id: "singleton" }, data: input });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.settings.update", targetType: "kvkk", targetId: "singleton", before, after });
    return after;
  });
}

/**
 * A tenant's own retention; `days: null` returns it to the default. `withinPlatform`: the tenant
 * sets it itself, so it may shorten the platform's period, never lengthen it.
 */
export async function setTenantRetention(ctx: ActorContext, input: TenantRetentionInput, opts: { withinPlatform?: boolean } = {}) {
  return ctx.db.$transaction(async (tx) => {
    const tenant = await tx.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true, specialCategory: true } });
    if (!tenant) throw new NotFoundError("Tenant");
    const settings = await tx.kvkkSettings.findUniqueOrThrow({ where: { id: "singleton" } });
    const { trafficLogMinDays: min, defaultRetentionDays: platform } = settings;
    const ceiling = specialCeilingDays(limitsOf(settings));
    if (min && input.days !== null && input.days < min) throw new InvalidInputError("days", `at least ${min} days: the call log holds traffic information Law 5651 keeps that long`);
    if (tenant.specialCategory && input.days !== null && input.days > ceiling) throw new InvalidInputError("days", `at most ${ceiling} days: this tenant's calls carry special categories of personal data (KVKK Art. 6), kept no longer than the special ceiling`);
    if (opts.withinPlatform && input.days !== null && input.days > platform) throw new InvalidInputError("days", `at most ${platform} days: the platform keeps call logs no longer than that (ask your operator for a longer period)`);
    const before = await tx.tenantRetention.findUnique({ where: { tenantId: input.tenantId } });
    const after =
      input.days === null
        ? (await tx.tenantRetention.deleteMany({ where: { tenantId: input.tenantId } }), null)
        : await tx.tenantRetention.upsert({ where: { tenantId: input.tenantId }, create: { tenantId: input.tenantId, days: input.days, method: input.method }, update: { days: input.days, method: input.method } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.retention.set", targetType: "tenant", targetId: input.tenantId, before, after });
    return after;
  });
}

/**
 * The controller's own choice (KVKK Art. 7: it decides how long its data is kept): a tenant user
 * sets its tenant's call-log retention, within the platform's period and above any legal minimum.
 */
export async function setOwnRetention(ctx: ActorContext, input: OwnRetentionInput) {
  const tenantId = ownTenant(ctx.actor);
  if (!tenantId) throw new NotFoundError("Tenant");
  return setTenantRetention(ctx, { ...input, tenantId }, { withinPlatform: true });
}
