import type { Role } from "../../db/generated/enums.ts";

/** A rule as the mapping reads it (SsoRule, with its tenant's name and status). */
export interface MappingRule {
  id: string;
  position: number;
  claim: string;
  value: string;
  role: Role;
  tenantId: string | null;
  tenant: { name: string; status: string } | null;
}

export type Mapping =
  | { ok: true; role: Role; tenantId: string | null; ruleId: string }
  | { ok: false; code: "no_rule" | "no_claims" | "tenant_gone"; reason: string };

/** A claim's values as strings: a list claim (groups) as its members, a single value as itself. */
export function claimValues(claims: Record<string, unknown>, claim: string): string[] {
  const v = claims[claim];
  if (Array.isArray(v)) return v.filter((x) => typeof x === "string" || typeof x === "number").map(String);
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return [String(v)];
  return [];
}

/**
 * Which role and tenant an identity gets: the first rule, by position, whose claim holds its value
 * (exactly; a list claim matches when any member does). None matching is a refusal that says which
 * values were seen, so an admin knows which rule to add. A tenant rule whose tenant has been
 * offboarded refuses rather than falling through to a later rule.
 */
export function mapClaims(rules: readonly MappingRule[], claims: Record<string, unknown>): Mapping {
  const ordered = [...rules].sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
  const claimNames = [...new Set(ordered.map((r) => r.claim))];
  for (const r of ordered) {
    if (!claimValues(claims, r.claim).includes(r.value)) continue;
    if (r.role === "tenant" && (!r.tenantId || !r.tenant || r.tenant.status === "offboarded")) {
      return { ok: false, code: "tenant_gone", reason: `the rule ${r.claim} = ${r.value} gives the tenant role for ${r.tenant?.name ?? "a tenant that no longer exists"}, which has been offboarded` };
    }
    return { ok: true, role: r.role, tenantId: r.role === "tenant" ? r.tenantId : null, ruleId: r.id };
  }
  const seen = claimNames.map((c) => `${c}: ${claimValues(claims, c).join(", ") || "none"}`).join("; ");
  if (ordered.length === 0) return { ok: false, code: "no_rule", reason: "no sign-in rule is set up yet: an admin adds one under Users & roles" };
  if (claimNames.every((c) => claimValues(claims, c).length === 0)) return { ok: false, code: "no_claims", reason: `the identity carries none of the claims the rules read (${claimNames.join(", ")})` };
  return { ok: false, code: "no_rule", reason: `no sign-in rule matches this identity (${seen})` };
}
