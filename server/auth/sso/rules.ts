import type { ActorContext } from "../actor.ts";
import type { Db, DbTx } from "../../db/client.ts";
import { recordAudit } from "../../audit/record.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../../errors.ts";
import { ssoConfig } from "./config.ts";
import type { AuthSettingsInput, SsoRuleInput, SsoRuleMoveInput, SsoRuleRefInput, SsoRuleUpdateInput } from "./schemas.ts";

const ruleView = { id: true, position: true, claim: true, value: true, role: true, tenantId: true, version: true, updatedAt: true, tenant: { select: { name: true, status: true } } } as const;

/** The rules in the order they are tried. */
export function listRules(db: Db | DbTx) {
  return db.ssoRule.findMany({ orderBy: [{ position: "asc" }, { id: "asc" }], select: ruleView });
}

async function checkTenant(tx: DbTx, tenantId: string | null | undefined) {
  if (tenantId && !(await tx.tenant.findUnique({ where: { id: tenantId } }))) throw new InvalidInputError("tenantId", "unknown tenant");
}

async function current(tx: DbTx, id: string, expectedVersion: number) {
  const before = await tx.ssoRule.findUnique({ where: { id }, select: ruleView });
  if (!before) throw new NotFoundError("Sign-in rule");
  if (before.version !== expectedVersion) throw new ConflictError("Someone changed this rule since you loaded it: reload to see their change.", { current: before });
  return before;
}

export function createRule(ctx: ActorContext, input: SsoRuleInput) {
  return ctx.db.$transaction(async (tx) => {
    await checkTenant(tx, input.tenantId);
    const last = await tx.ssoRule.aggregate({ _max: { position: true } });
    const rule = await tx.ssoRule.create({ data: { claim: input.claim, value: input.value, role: input.role, tenantId: input.tenantId ?? null, position: (last._max.position ?? 0) + 1 }, select: ruleView });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "sso.rule.create", targetType: "sso_rule", targetId: rule.id, after: rule });
    return rule;
  });
}

export function updateRule(ctx: ActorContext, input: SsoRuleUpdateInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await current(tx, input.id, input.expectedVersion);
    await checkTenant(tx, input.tenantId);
    const after = await tx.ssoRule.update({ where: { id: input.id }, data: { claim: input.claim, value: input.value, role: input.role, tenantId: input.tenantId ?? null, version: { increment: 1 } }, select: ruleView });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "sso.rule.update", targetType: "sso_rule", targetId: input.id, before, after });
    return after;
  });
}

export function deleteRule(ctx: ActorContext, input: SsoRuleRefInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await current(tx, input.id, input.expectedVersion);
    await tx.ssoRule.delete({ where: { id: input.id } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "sso.rule.delete", targetType: "sso_rule", targetId: input.id, before });
    return { id: input.id };
  });
}

/** Swaps a rule with its neighbour above or below: the order decides which rule wins. */
export function moveRule(ctx: ActorContext, input: SsoRuleMoveInput) {
  return ctx.db.$transaction(async (tx) => {
    const rule = await current(tx, input.id, input.expectedVersion);
    const all = await listRules(tx);
    const i = all.findIndex((r) => r.id === rule.id);
    const other = all[input.direction === "up" ? i - 1 : i + 1];
    if (!other) throw new InvalidInputError("direction", `the rule is already the ${input.direction === "up" ? "first" : "last"}`);
    // Renumber the whole list with the two swapped, so equal positions never tie.
    const order = all.map((r) => r.id);
    [order[i], order[all.indexOf(other)]] = [other.id, rule.id];
    for (const [n, id] of order.entries()) await tx.ssoRule.update({ where: { id }, data: { position: n + 1, ...(id === rule.id || id === other.id ? { version: { increment: 1 } } : {}) } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "sso.rule.move", targetType: "sso_rule", targetId: rule.id, before: { position: i + 1 }, after: { position: order.indexOf(rule.id) + 1 } });
    return listRules(tx);
  });
}

/** How people sign in: the settings (their defaults until an admin changes them), and whether SSO is configured. */
export async function authSettings(db: Db | DbTx) {
  const row = (await db.authSettings.findUnique({ where: { id: "singleton" } })) ?? { localPasswords: true, version: 1 };
  const sso = ssoConfig();
  return { localPasswords: row.localPasswords, version: row.version, sso: sso ? { name: sso.name, issuer: sso.issuer } : null };
}

export function setAuthSettings(ctx: ActorContext, input: AuthSettingsInput) {
  return ctx.db.$transaction(async (tx) => {
    await tx.authSettings.upsert({ where: { id: "singleton" }, create: {}, update: {} });
    const before = await authSettings(tx);
    if (!input.localPasswords && !before.sso) throw new InvalidInputError("localPasswords", "single sign-on is not configured (KULE_OIDC_ISSUER, KULE_OIDC_CLIENT_ID, KULE_OIDC_CLIENT_SECRET): turning passwords off would lock everyone but admins out");
    if (!input.localPasswords && (await tx.ssoRule.count()) === 0) throw new InvalidInputError("localPasswords", "no sign-in rule exists yet: add one first, or nobody can sign in with single sign-on");
    // Only from the version the admin saw: a concurrent change makes this update nothing.
    const { count } = await tx.authSettings.updateMany({ where: { id: "singleton", version: input.expectedVersion }, data: { localPasswords: input.localPasswords, version: { increment: 1 } } });
    if (count === 0) throw new ConflictError("Someone changed the sign-in settings since you loaded them: reload to see their change.", { current: before });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "auth.settings.set", targetType: "auth_settings", targetId: "singleton", before: { localPasswords: before.localPasswords }, after: { localPasswords: input.localPasswords } });
    return authSettings(tx);
  });
}
