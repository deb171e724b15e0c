import { NotFoundError } from "../errors.ts";
import type { Actor } from "./actor.ts";

/**
 * Which tenants a caller may see: the one owner of that rule. A tenant user sees its own tenant
 * only; staff see every tenant. Another tenant's row is NOT_FOUND, never FORBIDDEN, so its
 * existence does not leak.
 */

/** The tenant a caller is confined to, or null for staff (who see every tenant). */
export function ownTenant(actor: Actor): string | null {
  if (actor.role !== "tenant") return null;
  // A tenant user always has a tenant (loadActor signs out one without); seeing nothing is the safe answer if not.
  if (!actor.tenantId) throw new NotFoundError("Tenant");
  return actor.tenantId;
}

/**
 * The tenant a request is about: a tenant user's own whatever it names (naming another is
 * NOT_FOUND); staff get what they name, or null for "every tenant".
 */
export function tenantScope(actor: Actor, requested?: string | null): string | null {
  const own = ownTenant(actor);
  if (own === null) return requested ?? null;
  if (requested && requested !== own) throw new NotFoundError("Tenant");
  return own;
}

/** A Prisma `where` fragment confining rows of `column` to the caller's tenant; nothing for staff. */
export function tenantWhere<C extends string = "tenantId">(actor: Actor, column: C = "tenantId" as C): Partial<Record<C, string>> {
  const own = ownTenant(actor);
  return (own === null ? {} : { [column]: own }) as Partial<Record<C, string>>;
}

/**
 * The tenant of a search or an export: a tenant user's own whatever its filter named (a filter
 * cannot reach past its own rows), staff's as asked (undefined = every tenant).
 */
export function searchTenant(actor: Actor, requested?: string | null): string | undefined {
  return ownTenant(actor) ?? requested ?? undefined;
}
