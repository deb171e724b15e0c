import type { ActorContext } from "../auth/actor.ts";
import { tenantScope, tenantWhere } from "../auth/scope.ts";
import { recordAudit } from "../audit/record.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import { newApiKeySecret } from "../auth/api-key-secret.ts";
import type { DbTx } from "../db/client.ts";
import type { PriorityClass } from "../db/generated/enums.ts";
import { lowerOf } from "../gateway/overload/priority.ts";
import type { CreateApiKeyInput, ListApiKeysInput, RevokeApiKeyInput, SetApiKeyLimitsInput } from "./schemas.ts";

/**
 * A key's limits must fit within its tenant's (the tenant's own, else its plan's): a tenant user
 * splits its allowance between keys but cannot raise it. Refused naming the field and the ceiling.
 */
async function checkKeyLimits(tx: DbTx, tenantId: string, limits: { rpmLimit?: number | null; tpmLimit?: number | null; priority?: PriorityClass | null }) {
  const t = await tx.tenant.findUnique({ where: { id: tenantId }, include: { pricePlan: { select: { rpmLimit: true, tpmLimit: true, priority: true } } } });
  if (!t) throw new NotFoundError("Tenant");
  for (const field of ["rpmLimit", "tpmLimit"] as const) {
    const ceiling = t[field] ?? t.pricePlan?.[field] ?? null;
    const asked = limits[field];
    if (ceiling !== null && asked != null && asked > ceiling) {
      throw new InvalidInputError(field, `at most ${ceiling.toLocaleString("en")} ${field === "rpmLimit" ? "requests" : "tokens"} per minute, the tenant's own limit`);
    }
  }
  // The overload class: a key may take a lower class than its plan's (a batch key), never a higher one.
  const plan = t.pricePlan?.priority ?? "standard";
  if (limits.priority && lowerOf(limits.priority, plan) !== limits.priority) throw new InvalidInputError("priority", `at most ${plan}, the class of the tenant's price plan`);
  return t;
}

const publicFields = {
  id: true,
  tenantId: true,
  name: true,
  prefix: true,
  allowedEndpointIds: true,
  expiresAt: true,
  revokedAt: true,
  lastUsedAt: true,
  rpmLimit: true,
  tpmLimit: true,
  priority: true,
  mayRaisePriority: true,
  createdAt: true,
  tenant: { select: { name: true, slug: true } },
} as const;

/** A tenant user's own keys; staff see one tenant's or every tenant's. */
export function listApiKeys({ db, actor }: ActorContext, input: ListApiKeysInput) {
  const scope = tenantScope(actor, input.tenantId);
  return db.apiKey.findMany({
    where: scope ? { tenantId: scope } : {},
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
    select: publicFields,
  });
}

/** Returns the secret exactly once; only its SHA-256 is stored. */
export async function createApiKey(ctx: ActorContext, input: CreateApiKeyInput) {
  const tenantId = tenantScope(ctx.actor, input.tenantId);
  if (!tenantId) throw new InvalidInputError("tenantId", "choose the tenant the key belongs to");
  return ctx.db.$transaction(async (tx) => {
    const tenant = await checkKeyLimits(tx, tenantId, input);
    if (tenant.status === "offboarded") throw new NotFoundError("Tenant");
    const known = await tx.endpoint.count({ where: { id: { in: input.allowedEndpointIds } } });
    if (known !== new Set(input.allowedEndpointIds).size) throw new InvalidInputError("allowedEndpointIds", "an endpoint in the list does not exist");
    const { secret, prefix, hash } = newApiKeySecret();
    const key = await tx.apiKey.create({
      data: {
        tenantId,
        name: input.name,
        prefix,
        secretHash: hash,
        allowedEndpointIds: [...new Set(input.allowedEndpointIds)],
        expiresAt: input.expiresAt ?? null,
        rpmLimit: input.rpmLimit ?? null,
        tpmLimit: input.tpmLimit ?? null,
        createdById: ctx.actor.userId,
      },
      select: publicFields,
    });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "apikey.create", targetType: "api_key", targetId: key.id, after: key });
    return { key, secret };
  });
}

export async function revokeApiKey(ctx: ActorContext, { id }: RevokeApiKeyInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.apiKey.findFirst({ where: { id, ...tenantWhere(ctx.actor) }, select: publicFields });
    if (!before) throw new NotFoundError("API key");
    if (before.revokedAt) return before;
    const after = await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() }, select: publicFields });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "apikey.revoke", targetType: "api_key", targetId: id, before, after });
    return after;
  });
}

/** A key's own limits and overload class (its tenant's users, or an admin), within the tenant's and its plan's; audited with before and after. */
export async function setApiKeyLimits(ctx: ActorContext, input: SetApiKeyLimitsInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.apiKey.findFirst({ where: { id: input.id, ...tenantWhere(ctx.actor) }, select: publicFields });
    if (!before) throw new NotFoundError("API key");
    await checkKeyLimits(tx, before.tenantId, input);
    const after = await tx.apiKey.update({ where: { id: before.id }, data: { rpmLimit: input.rpmLimit, tpmLimit: input.tpmLimit, priority: input.priority, mayRaisePriority: input.mayRaisePriority }, select: publicFields });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "apikey.limits.set", targetType: "api_key", targetId: before.id, before, after });
    return after;
  });
}
