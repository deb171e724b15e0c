import type { ActorContext } from "../auth/actor.ts";
import { tenantScope } from "../auth/scope.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.ts";
import type { CreateTenantInput, TenantIdInput, UpdateTenantInput } from "./schemas.ts";

export function listTenants({ db }: ActorContext) {
  return db.tenant.findMany({
    orderBy: { name: "asc" },
    include: {
      pricePlan: { select: { id: true, name: true } },
      _count: { select: { apiKeys: { where: { revokedAt: null } }, memberships: true } },
    },
  });
}

/** A tenant user may read only its own tenant; any other id is NOT_FOUND. */
export async function getTenant({ db, actor }: ActorContext, { id }: TenantIdInput) {
  tenantScope(actor, id); // a tenant user naming another tenant: NOT_FOUND
  const tenant = await db.tenant.findUnique({ where: { id }, include: { pricePlan: { select: { id: true, name: true } } } });
  if (!tenant) throw new NotFoundError("Tenant");
  return tenant;
}

export async function createTenant(ctx: ActorContext, input: CreateTenantInput) {
  return ctx.db.$transaction(async (tx) => {
    if (await tx.tenant.findUnique({ where: { slug: input.slug } })) {
      throw new ConflictError(`The slug ${input.slug} is already taken.`, { field: "slug" });
    }
    if (input.pricePlanId && !(await tx.pricePlan.findUnique({ where: { id: input.pricePlanId } }))) {
      throw new InvalidInputError("pricePlanId", "unknown price plan");
    }
    const tenant = await tx.tenant.create({ data: { ...input, pricePlanId: input.pricePlanId ?? null } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "tenant.create", targetType: "tenant", targetId: tenant.id, after: tenant });
    return tenant;
  });
}

export async function updateTenant(ctx: ActorContext, input: UpdateTenantInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.tenant.findUnique({ where: { id: input.id } });
    if (!before) throw new NotFoundError("Tenant");
    if (input.pricePlanId && !(await tx.pricePlan.findUnique({ where: { id: input.pricePlanId } }))) {
      throw new InvalidInputError("pricePlanId", "unknown price plan");
    }
    const { id, ...data } = input;
    const after = await tx.tenant.update({ where: { id }, data });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "tenant.update", targetType: "tenant", targetId: id, before, after });
    return after;
  });
}

export function listPricePlans({ db }: ActorContext) {
  return db.pricePlan.findMany({ orderBy: { name: "asc" } });
}
