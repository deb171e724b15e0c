import type { PrismaClient } from "../db/generated/client.ts";
import type { Actor } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import { newApiKeySecret } from "../auth/api-key-secret.ts";
import type { CreateApiKeyInput } from "./schemas.ts";

interface Ctx {
  db: PrismaClient;
  actor: Actor;
  ip: string | null;
}

/**
 * The tenant a key operation may touch. A tenant user is pinned to its own tenant and naming
 * another one is NOT_FOUND, so other tenants' existence does not leak.
 */
function keyTenant(actor: Actor, requested: string | null | undefined): string | null {
  if (actor.role === "tenant") {
    if (!actor.tenantId || (requested && requested !== actor.tenantId)) throw new NotFoundError("Tenant");
    return actor.tenantId;
  }
  return requested ?? null;
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
  createdAt: true,
  tenant: { select: { name: true, slug: true } },
} as const;

export function listApiKeys({ db, actor }: { db: PrismaClient; actor: Actor }, tenantId?: string | null) {
  const scope = keyTenant(actor, tenantId);
  return db.apiKey.findMany({
    where: scope ? { tenantId: scope } : {},
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
    select: publicFields,
  });
}

/** Returns the secret exactly once; only its SHA-256 is stored. */
export async function createApiKey(ctx: Ctx, input: CreateApiKeyInput) {
  const tenantId = keyTenant(ctx.actor, input.tenantId);
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

export async function revokeApiKey(ctx: Ctx, id: string) {
  const scope = keyTenant(ctx.actor, null);
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.apiKey.findFirst({ where: { id, ...(scope ? { tenantId: scope } : {}) }, select: publicFields });
    if (!before) throw new NotFoundError("API key");
    if (before.revokedAt) return before;
    const after = await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() }, select: publicFields });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "apikey.revoke", targetType: "api_key", targetId: id, before, after });
    return after;
  });
}
