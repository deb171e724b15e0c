import { describe, expect, it } from "vitest";
import { can, permissionsOf } from "./permissions.ts";

describe("permission table", () => {
  it("keeps auditors read-only", () => {
    expect(permissionsOf("auditor").filter((p) => p.endsWith(":write"))).toEqual([]);
  });
  it("gives tenant users only their self-service permissions", () => {
    expect(permissionsOf("tenant").sort()).toEqual(["apikey:read", "apikey:write", "catalog:read", "metrics:tenant"]);
  });
  it("lets only admins manage users and tenants", () => {
    for (const role of ["operator", "auditor", "tenant"] as const) {
      expect(can(role, "user:write")).toBe(false);
      expect(can(role, "tenant:write")).toBe(false);
    }
    expect(can("admin", "user:write")).toBe(true);
  });
});
