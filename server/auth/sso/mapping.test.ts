import { describe, expect, it } from "vitest";
import { claimValues, mapClaims, type MappingRule } from "./mapping.ts";

const rule = (position: number, claim: string, value: string, role: MappingRule["role"], tenant?: { id: string; status: string }): MappingRule => ({
  id: `r${position}`,
  position,
  claim,
  value,
  role,
  tenantId: tenant?.id ?? null,
  tenant: tenant ? { name: `Tenant ${tenant.id}`, status: tenant.status } : null,
});

const RULES = [
  rule(2, "groups", "kule-operators", "operator"),
  rule(1, "groups", "kule-admins", "admin"),
  rule(3, "groups", "anadolu-ai", "tenant", { id: "t1", status: "active" }),
  rule(4, "hd", "bogazici.example", "tenant", { id: "t2", status: "offboarded" }),
];

describe("mapping an identity's claims to a role", () => {
  it("takes the first matching rule by position, from a list claim", () => {
    expect(mapClaims(RULES, { groups: ["staff", "kule-operators", "kule-admins"] })).toMatchObject({ ok: true, role: "admin", tenantId: null, ruleId: "r1" });
    expect(mapClaims(RULES, { groups: ["kule-operators"] })).toMatchObject({ ok: true, role: "operator" });
  });

  it("gives the tenant role with the rule's tenant, and only to that role", () => {
    expect(mapClaims(RULES, { groups: "anadolu-ai" })).toEqual({ ok: true, role: "tenant", tenantId: "t1", ruleId: "r3" });
  });

  it("refuses an unknown group, naming what it saw", () => {
    const m = mapClaims(RULES, { groups: ["marketing"] });
    expect(m).toMatchObject({ ok: false, code: "no_rule" });
    expect(!m.ok && m.reason).toContain("groups: marketing");
  });

  it("refuses an identity without the claims the rules read, and when there are no rules", () => {
    expect(mapClaims(RULES, { email: "x@y" })).toMatchObject({ ok: false, code: "no_claims" });
    expect(mapClaims([], { groups: ["kule-admins"] })).toMatchObject({ ok: false, code: "no_rule" });
  });

  it("refuses a rule whose tenant was offboarded instead of falling through", () => {
    expect(mapClaims([...RULES, rule(9, "hd", "bogazici.example", "operator")], { hd: "bogazici.example" })).toMatchObject({ ok: false, code: "tenant_gone" });
  });

  it("matches values exactly, not by prefix or case", () => {
    expect(mapClaims(RULES, { groups: ["kule-admins-old", "KULE-ADMINS"] })).toMatchObject({ ok: false });
  });

  it("reads list, string, number and boolean claims; ignores objects", () => {
    expect(claimValues({ a: ["x", 2, { y: 1 }] }, "a")).toEqual(["x", "2"]);
    expect(claimValues({ a: true }, "a")).toEqual(["true"]);
    expect(claimValues({ a: { b: 1 } }, "a")).toEqual([]);
  });
});
