import { describe, expect, it } from "vitest";
import type { Actor } from "./actor.ts";
import { searchTenant, tenantScope, tenantWhere } from "./scope.ts";
import { NotFoundError } from "../errors.ts";

const tenant: Actor = { userId: "u1", email: "t@x", name: "T", role: "tenant", tenantId: "tenant-a" };
const admin: Actor = { ...tenant, role: "admin", tenantId: null };
const orphan: Actor = { ...tenant, tenantId: null };

describe("which tenant a caller may see", () => {
  it("pins a tenant user to its own tenant; naming another is NOT_FOUND", () => {
    expect(tenantScope(tenant)).toBe("tenant-a");
    expect(tenantScope(tenant, "tenant-a")).toBe("tenant-a");
    expect(() => tenantScope(tenant, "tenant-b")).toThrow(NotFoundError);
  });

  it("lets staff name any tenant, or none for every tenant", () => {
    expect(tenantScope(admin, "tenant-b")).toBe("tenant-b");
    expect(tenantScope(admin)).toBeNull();
    expect(tenantWhere(admin)).toEqual({});
  });

  it("confines a tenant's searches to its own rows whatever they name", () => {
    expect(searchTenant(tenant, "tenant-b")).toBe("tenant-a");
    expect(searchTenant(admin, "tenant-b")).toBe("tenant-b");
    expect(tenantWhere(tenant, "tenantScope")).toEqual({ tenantScope: "tenant-a" });
  });

  it("shows a tenant user without a tenant nothing at all", () => {
    expect(() => tenantWhere(orphan)).toThrow(NotFoundError);
    expect(() => searchTenant(orphan)).toThrow(NotFoundError);
  });
});
