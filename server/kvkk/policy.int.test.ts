import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { ownDatabase } from "../test/own-db.ts";
import { insertCalls, makeTenantIn } from "../audit/test/fixtures.ts";
import { sealAll } from "../audit/seal/seal.ts";
import { verifyChains } from "../audit/seal/verify.ts";
import { exportFile } from "../call-log/export/jobs.ts";
import { hashSubject } from "../call-log/subject-hash.ts";
import type { Actor } from "../auth/actor.ts";
import type { Role } from "../db/generated/enums.ts";

let own: Awaited<ReturnType<typeof ownDatabase>>;
const actors = {} as Record<Role, Actor>;
const now = new Date();
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
const codeOf = (p: Promise<unknown>) => p.then(() => "OK", (e: unknown) => (e instanceof TRPCError ? e.code : String(e)));

beforeAll(async () => {
  own = await ownDatabase("kule_policy");
  for (const role of ["admin", "operator", "auditor", "tenant"] as Role[]) {
    const t = role === "tenant" ? await makeTenantIn(own.pool) : null;
    const u = await own.db.user.create({ data: { email: `${role}-p@t.local`, name: role, passwordHash: "x", membership: { create: { role, tenantId: t } } } });
    actors[role] = { userId: u.id, email: u.email, name: u.name, role, tenantId: t };
  }
}, 120_000);
afterAll(() => own?.close());

describe("the storage-and-destruction policy", () => {
  it("lists every store of personal data with its purpose, legal basis, period and the reason for it; the auditor reads it", async () => {
    const p = await own.caller(actors.auditor).kvkk.policy.get();
    expect(p.entries.map((e) => e.store)).toEqual(["call_log", "audit_ip", "exports", "subject_requests", "gateway_journal", "transfer_register", "destruction_records"]);
    expect(p.entries.every((e) => e.purpose && e.legalBasis && e.periodReason && e.responsible)).toBe(true);
    expect(p.entries.find((e) => e.store === "audit_ip")?.periodDays).toBe(730);
  });

  it("an admin edits an entry against the version read; the auditor may not", async () => {
    const e = (await own.caller(actors.admin).kvkk.policy.get()).entries.find((x) => x.store === "exports")!;
    const edit = { store: "exports" as const, category: e.category, dataSubjects: e.dataSubjects, purpose: e.purpose, legalBasis: e.legalBasis, periodDays: 14, periodReason: "Two weeks is enough for any recipient to download", responsible: "DPO, Kule Ops", expectedUpdatedAt: e.updatedAt };
    expect(await codeOf(own.caller(actors.auditor).kvkk.policy.update(edit))).toBe("FORBIDDEN");
    expect((await own.caller(actors.admin).kvkk.policy.update(edit)).periodDays).toBe(14);
    expect(await codeOf(own.caller(actors.admin).kvkk.policy.update(edit))).toBe("CONFLICT");
  });
});

describe("the periodic destruction covers every store, with holds and the Law 5651 minimum", () => {
  let held: string, free: string, minTenant: string;
  let ayseRows: string[], otherOld: string[];
  let oldExport: string, closedOld: string, openOld: string;

  beforeAll(async () => {
    [held, free, minTenant] = [await makeTenantIn(own.pool), await makeTenantIn(own.pool), await makeTenantIn(own.pool)];
    await own.pool.query(`INSERT INTO "TenantRetention" ("tenantId", days, method, "updatedAt") VALUES ($1, 30, 'delete', now()), ($2, 30, 'delete', now()), ($3, 400, 'delete', now())`, [held, free, minTenant]);
    await insertCalls(own.pool, [{ tenantId: held, startedAt: daysAgo(40) }]);
    ayseRows = await insertCalls(own.pool, [{ tenantId: free, startedAt: daysAgo(40), userHash: hashSubject("ayse@example.com.tr") }]);
    otherOld = await insertCalls(own.pool, [{ tenantId: free, startedAt: daysAgo(40) }]);
    // Audit events with IPs, 800 days old (beyond the policy's 730), sealed.
    await own.pool.query(`INSERT INTO "AuditEvent" ("actorEmail", action, "targetType", at, ip) VALUES ('x@t.local', 'test.old', 'test', $1::timestamptz AT TIME ZONE 'UTC', '198.51.100.4'), ('x@t.local', 'test.recent', 'test', $2::timestamptz AT TIME ZONE 'UTC', '198.51.100.5')`, [daysAgo(800), daysAgo(10)]);
    await sealAll(own.pool, { now, graceMinutes: 60 });
    expect((await verifyChains(own.pool)).ok).toBe(true);
    // An export 20 days old (policy now 14 days) with its file; a closed application 4 years old, an open one as old.
    oldExport = (await own.db.exportJob.create({ data: { format: "csv", filter: {}, requestedById: "u", requestedByEmail: "x@t.local", state: "done", createdAt: daysAgo(20) } })).id;
    fs.mkdirSync(path.dirname(exportFile(oldExport, "csv", "data")), { recursive: true });
    fs.writeFileSync(exportFile(oldExport, "csv", "data"), "requestId\n");
    closedOld = (await own.db.dataSubjectRequest.create({ data: { subjectHash: "c".repeat(64), rowsFound: 0, requestedById: "u", requestedByEmail: "x", createdAt: daysAgo(1500), closedAt: daysAgo(1460) } })).id;
    openOld = (await own.db.dataSubjectRequest.create({ data: { subjectHash: "d".repeat(64), rowsFound: 0, requestedById: "u", requestedByEmail: "x", createdAt: daysAgo(1500) } })).id;
  });

  it("keeps held rows, destroys the rest of every store, and records the run", async () => {
    await own.caller(actors.admin).kvkk.holds.place({ tenantId: held, reason: "Dispute with the tenant, case 2026/118" });
    await own.caller(actors.admin).kvkk.holds.place({ user: "ayse@example.com.tr", reason: "Prosecutor's request 2026/55 for this subject" });
    expect(await codeOf(own.caller(actors.auditor).kvkk.holds.place({ reason: "Auditors cannot hold data" }))).toBe("FORBIDDEN");
    const res = await own.caller(actors.admin).kvkk.runDestruction();

    const left = (await own.pool.query<{ requestId: string; tenantId: string }>(`SELECT "requestId", "tenantId" FROM "CallLog"`)).rows;
    expect(left.filter((r) => r.tenantId === held)).toHaveLength(1);
    expect(left.map((r) => r.requestId)).toEqual(expect.arrayContaining(ayseRows));
    expect(left.map((r) => r.requestId)).not.toEqual(expect.arrayContaining(otherOld));

    const ips = (await own.pool.query<{ action: string; ip: string | null }>(`SELECT action, ip FROM "AuditEvent" WHERE action LIKE 'test.%' ORDER BY action`)).rows;
    expect(ips).toEqual([
      { action: "test.old", ip: null },
      { action: "test.recent", ip: "198.51.100.5" },
    ]);
    expect(await own.db.exportJob.findUnique({ where: { id: oldExport } })).toBeNull();
    expect(fs.existsSync(exportFile(oldExport, "csv", "data"))).toBe(false);
    expect(await own.db.dataSubjectRequest.findUnique({ where: { id: closedOld } })).toBeNull();
    expect(await own.db.dataSubjectRequest.findUnique({ where: { id: openOld } })).not.toBeNull();

    const recs = await own.db.destructionRecord.findMany({ where: { store: { in: ["audit_ip", "exports", "subject_requests"] } } });
    expect(recs.map((r) => [r.store, r.rowCount]).sort()).toEqual([["audit_ip", 1], ["exports", 1], ["subject_requests", 1]]);
    const run = await own.db.destructionRun.findFirstOrThrow({ orderBy: { startedAt: "desc" } });
    expect(run.actorEmail).toBe(actors.admin.email);
    expect(run.summary).toMatchObject({ callLog: { rows: res.rows }, holds: { tenants: [held], subjects: 1 } });
    // The audit stream's seal is carried through the erased IPs: the chain still checks.
    expect(await verifyChains(own.pool)).toMatchObject({ ok: true, firstBad: null });
  });

  it("a released hold lets the next run destroy what it kept", async () => {
    for (const h of await own.caller(actors.admin).kvkk.holds.list()) if (!h.releasedAt) await own.caller(actors.admin).kvkk.holds.release({ id: h.id });
    await own.caller(actors.admin).kvkk.runDestruction();
    const left = (await own.pool.query<{ tenantId: string }>(`SELECT "tenantId" FROM "CallLog" WHERE "tenantId" IN ($1, $2)`, [held, free])).rows;
    expect(left).toHaveLength(0);
  });

  it("with the Law 5651 minimum set, refuses a shorter retention and keeps traffic logs younger than it", async () => {
    const s = await own.db.kvkkSettings.findUniqueOrThrow({ where: { id: "singleton" } });
    await own.caller(actors.admin).kvkk.updateSettings({ defaultRetentionDays: 730, destructionIntervalDays: s.destructionIntervalDays, sealGraceMinutes: s.sealGraceMinutes, trafficLogMinDays: 365 });
    expect(await codeOf(own.caller(actors.admin).kvkk.setTenantRetention({ tenantId: free, days: 30 }))).toBe("BAD_REQUEST");
    const kept = await insertCalls(own.pool, [{ tenantId: free, startedAt: daysAgo(40) }]);
    await own.caller(actors.admin).kvkk.runDestruction();
    expect((await own.pool.query(`SELECT 1 FROM "CallLog" WHERE "requestId" = $1`, [kept[0]])).rowCount).toBe(1);
    expect((await own.db.destructionRun.findFirstOrThrow({ orderBy: { startedAt: "desc" } })).summary).toMatchObject({ callLog: { rows: 0, trafficLogMinDays: 365 } });
  });
});
