import type { Role } from "../db/generated/enums.ts";

/**
 * Who may do what: the one table. Procedure builders enforce it (server/trpc/init.ts), pages use
 * it to show "not allowed", and the client uses it to hide what a role cannot do.
 * Tenant users also pass through the data layer's tenant scoping: `api-key:*` is theirs only
 * for their own tenant.
 */
export const PERMISSIONS = {
  "model:read": ["admin", "operator", "auditor"],
  "model:write": ["admin", "operator"],
  "endpoint:read": ["admin", "operator", "auditor"],
  "endpoint:write": ["admin", "operator"],
  /** The endpoints a tenant can call, without their internals. */
  "catalog:read": ["admin", "operator", "tenant"],
  "cluster:read": ["admin", "operator", "auditor"],
  /** Where Kule's own parts run (the simulator's and Prometheus' addresses): staff only, never tenants. */
  "system:internals": ["admin", "operator", "auditor"],
  /** Start and stop replicas, MIG layouts, cordon, and the simulator's faults. */
  "cluster:write": ["admin", "operator"],
  /** Size a model on the fleet's GPU kinds and their prices (the capacity planner): it reads the whole fleet. */
  "capacity:plan": ["admin", "operator"],
  /** Endpoint and GPU charts and SLA status from Prometheus, across every tenant. */
  "metrics:read": ["admin", "operator", "auditor"],
  /** A tenant's own traffic charts; the tenant label is forced from the signed-in user. */
  "metrics:tenant": ["tenant"],
  /** Raw PromQL against Prometheus: sees every tenant's series, so staff who run the cluster only. */
  "metrics:explore": ["admin", "operator"],
  "tenant:read": ["admin", "operator", "auditor"],
  "tenant:write": ["admin"],
  "api-key:read": ["admin", "operator", "tenant"],
  "api-key:write": ["admin", "tenant"],
  "priceplan:read": ["admin", "operator"],
  /** Usage, cost and SLA as served: a tenant user sees only its own tenant (server/usage/queries.ts). */
  "usage:read": ["admin", "operator", "tenant"],
  /** All tenants ranked, revenue against infrastructure cost, idle capacity. */
  "usage:admin": ["admin", "operator"],
  /** A tenant's monthly budget and hard cap: the tenant's own, or any for an admin. */
  "budget:write": ["admin", "tenant"],
  /** Dated plan prices and hardware rates. */
  "billing:write": ["admin"],
  "user:read": ["admin"],
  "user:write": ["admin"],
  "audit:read": ["admin", "auditor"],
  /** Check the sealed chain (a read: it changes nothing, and is itself audited). */
  "audit:verify": ["admin", "auditor"],
  /** The call-log explorer and its exports; a tenant sees and exports only its own rows. */
  "call-log:read": ["admin", "auditor", "tenant"],
  "call-log:export": ["admin", "auditor", "tenant"],
  /**
   * Client IPs in the explorer unmasked without a stated reason: the controller (tenant, its own
   * callers) and admins. Auditors see them masked unless they say why, and the reason is audited
   * (KVKK Art. 12: access to personal data limited to what the task needs).
   */
  "call-log:client-ip": ["admin", "tenant"],
  /**
   * Rows of special categories of personal data (KVKK Art. 6: a tenant or endpoint marked health,
   * biometric…) unmasked: the controller and admins. Others see them masked, a stated reason
   * notwithstanding; the permission is given to a person's role explicitly, never by default.
   */
  "call-log:special-category": ["admin", "tenant"],
  /** Retention settings, destruction records, the residency map, transfer safeguards and the transfer register. */
  "kvkk:read": ["admin", "auditor"],
  /** Retention, destruction runs, erasing a data subject's rows, transfer safeguards, verifying regions: changes, so never the auditor. */
  "kvkk:write": ["admin"],
  /** A tenant's own view as data controller: where its calls were served, its safeguards, staff reads of its data. */
  "kvkk:controller": ["tenant"],
  /** Data subjects' applications (KVKK Art. 11, 13): a tenant, the controller, sees its own. */
  "application:read": ["admin", "auditor", "tenant"],
  /** Record, answer, refuse, erase for an application: a tenant for its own, an admin for any. */
  "application:write": ["admin", "tenant"],
  /** Find and export a data subject's rows (a tenant, for its own users). */
  "subject:read": ["admin", "auditor", "tenant"],
  /** Alerts Alertmanager delivered, the receivers and silences: staff who run the cluster or audit it. */
  "alert:read": ["admin", "operator", "auditor"],
  /** Receivers, routing and silences (maintenance windows). */
  "alert:write": ["admin", "operator"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

export function permissionsOf(role: Role): Permission[] {
  return (Object.keys(PERMISSIONS) as Permission[]).filter((p) => can(role, p));
}
