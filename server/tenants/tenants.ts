import type { ActorContext } from "../auth/actor.ts";
import { tenantScope } from "../auth/scope.ts";
import { recordAudit } from "../audit/record.ts";
import type { DbTx } from "../db/client.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.ts";
import { refreshBudgetBlocks } from "../usage/caps.ts";
import type { CreateTenantInput, TenantIdInput, UpdateTenantInput } from "./schemas.ts";

const withPlan = { pricePlan: { select: { id: true, name: true, rpmLimit: true, tpmLimit: true, currency: true } } } as const;

export function listTenants({ db }: ActorContext) {
  return db.tenant.findMany({
    orderBy: { name: "asc" },
    include: {
      ...withPlan,
      _count: { select: { apiKeys: { where: { revokedAt: null } }, memberships: true } },
    },
  });
}

/** A tenant user may read only its own tenant; any other id is NOT_FOUND. */
export async function getTenant({ db, actor }: ActorContext, { id }: TenantIdInput) {
  tenantScope(actor, id); // a tenant user naming another tenant: NOT_FOUND
  const tenant = await db.tenant.findUnique({ where: { id }, include: withPlan });
  if (!tenant) throw new NotFoundError("Tenant");
  return tenant;
}

async function checkPlan(tx: DbTx, pricePlanId: string | null | undefined) {
  if (pricePlanId && !(await tx.pricePlan.findUnique({ where: { id: pricePlanId } }))) throw new InvalidInputError("pricePlanId", "unknown price plan");
}

export async function createTenant(ctx: ActorContext, input: CreateTenantInput) {
  return ctx.db.$transaction(async (tx) => {
    if (await tx.tenant.findUnique({ where: { slug: input.slug } })) {
      throw new ConflictError(`The slug ${input.slug} is already taken.`, { field: "slug" });
    }
    await checkPlan(tx, input.pricePlanId);
    const tenant = await tx.tenant.create({ data: { ...input, pricePlanId: input.pricePlanId ?? null } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "tenant.create", targetType: "tenant", targetId: tenant.id, after: tenant });
    return tenant;
  });
}

/**
 * Claims the tenant for an edit: applies only if nobody changed it since the editor loaded it
 * (its updatedAt), else a conflict carrying the current tenant. An offboarded tenant is not edited.
 */
export async function claimTenant(tx: DbTx, id: string, expectedUpdatedAt: Date) {
  const before = await tx.tenant.findUnique({ where: { id } });
  if (!before) throw new NotFoundError("Tenant");
  if (before.status === "offboarded") throw new ConflictError(`${before.name} was offboarded on ${before.offboardedAt?.toISOString().slice(0, 10)}: it can no longer be changed.`);
  const { count } = await tx.tenant.updateMany({ where: { id, updatedAt: expectedUpdatedAt }, data: { updatedAt: new Date() } });
  if (count === 0) throw new ConflictError(`Someone else changed ${before.name} since you loaded it. Review the current values and try again.`, { current: before });
  return before;
}

/** An admin's edit of a tenant: name, KVKK, status, plan, limits and credit limit, audited with before and after. */
export async function updateTenant(ctx: ActorContext, input: UpdateTenantInput) {
  const { id, expectedUpdatedAt, ...data } = input;
  const after = await ctx.db.$transaction(async (tx) => {
    const before = await claimTenant(tx, id, expectedUpdatedAt);
    await checkPlan(tx, data.pricePlanId);
    const after = await tx.tenant.update({ where: { id }, data });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "tenant.update", targetType: "tenant", targetId: id, before, after });
    return after;
  });
  // A credit limit set below this month's spend blocks at once; one raised lets calls through at once.
  if (data.creditLimit !== undefined) await refreshBudgetBlocks(ctx.db, [id]);
  return ctx.db.tenant.findUniqueOrThrow({ where: { id: after.id }, include: withPlan });
}

export function listPricePlans({ db }: ActorContext) {
  return db.pricePlan.findMany({ orderBy: { name: "asc" } });
}
