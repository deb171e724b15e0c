import type { Role } from "../db/generated/enums.ts";

/** The signed-in user a request acts as, loaded fresh from the database on every request. */
export interface Actor {
  userId: string;
  email: string;
  name: string;
  role: Role;
  /** Set for the tenant role: the only tenant this actor may see. */
  tenantId: string | null;
}

/**
 * The tenant a tenant-scoped query must be limited to: a tenant user's own tenant whatever they
 * asked for, or the one an operator/admin named (null = all tenants).
 */
export function tenantScope(actor: Actor, requested?: string | null): string | null {
  if (actor.role === "tenant") return actor.tenantId ?? "__none__";
  return requested ?? null;
}
