import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.ts";
import { hashPassword } from "../auth/password.ts";
import type { CreateUserInput, SetRoleInput } from "./schemas.ts";

const userView = {
  id: true,
  email: true,
  name: true,
  createdAt: true,
  membership: { select: { role: true, tenantId: true, tenant: { select: { name: true } } } },
} as const;

export function listUsers({ db }: ActorContext) {
  return db.user.findMany({ orderBy: { email: "asc" }, select: userView });
}

export async function createUser(ctx: ActorContext, input: CreateUserInput) {
  const passwordHash = await hashPassword(input.password);
  return ctx.db.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: input.email } })) {
      throw new ConflictError(`${input.email} already has an account.`, { field: "email" });
    }
    if (input.tenantId && !(await tx.tenant.findUnique({ where: { id: input.tenantId } }))) {
      throw new InvalidInputError("tenantId", "unknown tenant");
    }
    const user = await tx.user.create({
      data: {
        email: input.email,
        name: input.name,
        passwordHash,
        membership: { create: { role: input.role, tenantId: input.tenantId ?? null } },
      },
      select: userView,
    });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "user.create", targetType: "user", targetId: user.id, after: user });
    return user;
  });
}

export async function setUserRole(ctx: ActorContext, input: SetRoleInput) {
  if (input.userId === ctx.actor.userId && input.role !== "admin") {
    throw new InvalidInputError("role", "you cannot take away your own admin role; ask another admin");
  }
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: input.userId }, select: userView });
    if (!before) throw new NotFoundError("User");
    if (input.tenantId && !(await tx.tenant.findUnique({ where: { id: input.tenantId } }))) {
      throw new InvalidInputError("tenantId", "unknown tenant");
    }
    await tx.membership.upsert({
      where: { userId: input.userId },
      create: { userId: input.userId, role: input.role, tenantId: input.tenantId ?? null },
      update: { role: input.role, tenantId: input.tenantId ?? null },
    });
    const after = await tx.user.findUniqueOrThrow({ where: { id: input.userId }, select: userView });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "user.role.set", targetType: "user", targetId: input.userId, before, after });
    return after;
  });
}
