import type { Role, TenantStatus } from "../db/generated/enums.ts";

/** What decides whether a membership still lets its user in. */
export const membershipInclude = { membership: { include: { tenant: { select: { status: true } } } } } as const;

/**
 * A membership lets its user sign in and act unless it is a tenant user's whose tenant is missing
 * or has been offboarded (the tenant left: its people lose access at once, its records stay).
 */
export function membershipActive(m: { role: Role; tenantId: string | null; tenant: { status: TenantStatus } | null } | null): boolean {
  if (!m) return false;
  if (m.role !== "tenant") return true;
  return m.tenantId !== null && m.tenant !== null && m.tenant.status !== "offboarded";
}
