import { describe, expect, it } from "vitest";
import { can, permissionsOf } from "./permissions.ts";

describe("permission table", () => {
  it("keeps auditors read-only", () => {
    expect(permissionsOf("auditor").filter((p) => p.endsWith(":write"))).toEqual([]);
  });
  it("gives tenant users only their self-service permissions", () => {
    // Each is scoped to the tenant's own rows in the data layer (another tenant's row is NOT_FOUND).
    expect(permissionsOf("tenant").sort()).toEqual(["api-key:read", "api-key:write", "application:read", "application:write", "budget:write", "call-log:client-ip", "call-log:export", "call-log:read", "call-log:special-category", "catalog:read", "kvkk:controller", "metrics:tenant", "subject:read", "usage:read"]);
  });
  it("lets only admins manage users and tenants", () => {
    for (const role of ["operator", "auditor", "tenant"] as const) {
      expect(can(role, "user:write")).toBe(false);
      expect(can(role, "tenant:write")).toBe(false);
    }
    expect(can("admin", "user:write")).toBe(true);
  });
  it("shows special-category rows unmasked to the controller and admins only, never to auditors or operators", () => {
    expect((["admin", "operator", "auditor", "tenant"] as const).filter((r) => can(r, "call-log:special-category"))).toEqual(["admin", "tenant"]);
  });
});
