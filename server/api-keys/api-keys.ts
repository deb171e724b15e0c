import type { ActorContext } from "../auth/actor.ts";
import { tenantScope, tenantWhere } from "../auth/scope.ts";
import { recordAudit } from "../audit/record.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import { newApiKeySecret } from "../auth/api-key-secret.ts";
import type { CreateApiKeyInput, ListApiKeysInput, RevokeApiKeyInput } from "./schemas.ts";

const publicFields = {
  id: true,
  tenantId: true,
  name: true,
  prefix: true,
  allowedEndpointIds: true,
  expiresAt: true,
  revokedAt: true,
  lastUsedAt: true,
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
    if (!(await tx.tenant.findUnique({ where: { id: tenantId } }))) throw new NotFoundError("Tenant");
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
