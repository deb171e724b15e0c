import { describe, expect, it } from "vitest";
import { cursorSql, scopeFilter, whereSql } from "./where.ts";
import type { Actor } from "../auth/actor.ts";

const tenant: Actor = { userId: "u1", email: "t@x", name: "T", role: "tenant", tenantId: "tenant-a" };
const auditor: Actor = { ...tenant, role: "auditor", tenantId: null };

describe("call-log filters as SQL", () => {
  it("forces a tenant's own id over whatever tenant it asks for; staff keep theirs", () => {
    expect(scopeFilter(tenant, { tenantId: "tenant-b", status: 503 })).toEqual({ tenantId: "tenant-a", status: 503 });
    expect(scopeFilter(auditor, { tenantId: "tenant-b" })).toEqual({ tenantId: "tenant-b" });
  });

  it("escapes every value as a literal, so a quote cannot end the string", () => {
    const sql = whereSql({ requestId: "x' OR '1'='1" });
    expect(sql).toBe(`TRUE AND c."requestId" = 'x'' OR ''1''=''1'`);
    expect(whereSql({ clientIp: "10.0.0.1", status: 503 }, `"CallLog"`)).toMatch(/^TRUE AND "CallLog"."status" = 503 AND \("CallLog"."clientIp" = '10.0.0.1' OR "CallLog"."clientIpHash" IN \('[0-9a-f]{64}'(, '[0-9a-f]{64}')+\)\)$/);
  });

  it("looks a person up under every key version given, and matches nothing for none", () => {
    expect(whereSql({ subjectHashes: ["a".repeat(64), "b".repeat(64)] })).toBe(`TRUE AND (c."userHash" IN ('${"a".repeat(64)}', '${"b".repeat(64)}'))`);
    expect(whereSql({ subjectHashes: [] })).toBe("TRUE AND FALSE");
    // Found by the `user` identifier or by a client IP: a row is the person's by either.
    expect(whereSql({ subjectHashes: ["a".repeat(64)], subjectIpIndexes: ["c".repeat(64)] })).toBe(`TRUE AND (c."userHash" IN ('${"a".repeat(64)}') OR c."clientIpHash" IN ('${"c".repeat(64)}'))`);
    expect(() => scopeFilter(auditor, { subjectIpIndexes: ["c".repeat(64)] })).toThrow(/tenant/);
    expect(() => scopeFilter(auditor, { subjectHashes: ["a".repeat(64)] })).toThrow(/tenant/);
  });

  it("reads time bounds as UTC and pages by (startedAt, requestId)", () => {
    expect(whereSql({ from: new Date("2026-11-03T00:00:00Z") })).toContain(`c."startedAt" >= '2026-11-03T00:00:00.000Z'::timestamptz AT TIME ZONE 'UTC'`);
    expect(cursorSql(`${Date.parse("2026-11-03T00:00:00Z")}_abc`)).toBe(`(c."startedAt", c."requestId") < ('2026-11-03T00:00:00.000Z'::timestamptz AT TIME ZONE 'UTC', 'abc')`);
  });
});
