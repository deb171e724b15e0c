import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { ownDatabase } from "../test/own-db.ts";
import { httpMutation } from "../test/harness.ts";
import { insertCalls, makeTenantIn } from "../audit/test/fixtures.ts";
import { appRouter } from "../routers/root.ts";
import { hashSubject } from "./subject-hash.ts";
import type { Actor } from "../auth/actor.ts";

let own: Awaited<ReturnType<typeof ownDatabase>>;
let a: string, b: string, kv: string;
let aIds: string[], bIds: string[];
let auditor: Actor, admin: Actor, tenantA: Actor;
const t0 = new Date(Date.UTC(2026, 9, 20, 10));
const ayse = hashSubject("ayse@example.com.tr");

async function actorIn(role: Actor["role"], tenantId: string | null = null): Promise<Actor> {
  const u = await own.db.user.create({ data: { email: `${role}-${Math.random().toString(36).slice(2)}@t.local`, name: role, passwordHash: "x", membership: { create: { role, tenantId } } } });
  return { userId: u.id, email: u.email, name: u.name, role, tenantId };
}

beforeAll(async () => {
  own = await ownDatabase("kule_access");
  [a, b, kv] = [await makeTenantIn(own.pool), await makeTenantIn(own.pool), await makeTenantIn(own.pool, { kvkk: true })];
  for (const m of ["2026-08-01", "2026-09-01", "2026-10-01"]) await own.pool.query(`SELECT kule_call_log_partition($1::timestamp)`, [m]);
  aIds = await insertCalls(own.pool, Array.from({ length: 30 }, (_, i) => ({ tenantId: a, startedAt: new Date(t0.getTime() + i * 60_000), status: i % 10 === 0 ? 503 : 200, endpointId: "ep-a" })));
  bIds = await insertCalls(own.pool, Array.from({ length: 5 }, (_, i) => ({ tenantId: b, startedAt: new Date(t0.getTime() + i * 60_000), region: i === 0 ? "eu-fra" : "tr-ist" })));
  // Ayşe called through tenant A in August and October, and through tenant B in September.
  await insertCalls(own.pool, [
    { tenantId: a, startedAt: new Date(Date.UTC(2026, 7, 5)), userHash: ayse },
    { tenantId: a, startedAt: new Date(Date.UTC(2026, 9, 5)), userHash: ayse },
    { tenantId: b, startedAt: new Date(Date.UTC(2026, 8, 5)), userHash: ayse },
    { tenantId: b, startedAt: new Date(Date.UTC(2026, 8, 6)), userHash: hashSubject("mehmet@example.com.tr") },
  ]);
  await insertCalls(own.pool, [{ tenantId: kv, startedAt: t0, region: "eu-fra" }, { tenantId: kv, startedAt: t0, region: "tr-ank" }]);
  // The split before the calls, and a later one that must not be shown for them.
  await own.db.auditEvent.create({ data: { action: "endpoint.weights.set", targetType: "endpoint", targetId: "ep-a", after: [{ version: "1.0", weight: 95 }, { version: "1.1", weight: 5 }], at: new Date(t0.getTime() - 3_600_000) } });
  await own.db.auditEvent.create({ data: { action: "endpoint.weights.set", targetType: "endpoint", targetId: "ep-a", after: [{ version: "1.1", weight: 100 }], at: new Date(t0.getTime() + 86_400_000) } });
  [auditor, admin, tenantA] = [await actorIn("auditor"), await actorIn("admin"), await actorIn("tenant", a)];
  // Recorded before anything rolls the transfer register up (a subject's erasure below does): the register keeps the coverage it found then.
  await own.caller(admin).kvkk.safeguards.create({ tenantId: b, destination: "de", importer: "Rechen SE, Frankfurt", mechanism: "bcr", reference: "BCR-9", signedAt: new Date(Date.UTC(2026, 8, 1)) });
}, 120_000);
afterAll(() => own?.close());

const code = async (p: Promise<unknown>) => p.then(() => "OK", (e) => (e instanceof TRPCError ? e.code : String(e)));

describe("the explorer", () => {
  it("filters and pages by keyset for an auditor, and records the search", async () => {
    const c = own.caller(auditor);
    const range = { tenantId: a, from: t0, to: new Date(t0.getTime() + 3_600_000) };
    const p1 = await c.callLog.list({ ...range, limit: 20 });
    const p2 = await c.callLog.list({ ...range, limit: 20, cursor: p1.nextCursor });
    expect(p1.items).toHaveLength(20);
    expect(p2.items).toHaveLength(10);
    expect(p2.nextCursor).toBeNull();
    expect(new Set([...p1.items, ...p2.items].map((r) => r.requestId))).toEqual(new Set(aIds));
    expect(p1.items[0]!.startedAt.getTime()).toBeGreaterThan(p1.items[19]!.startedAt.getTime());
    expect((await c.callLog.list({ ...range, status: 503 })).items).toHaveLength(3);
    const searches = await own.db.auditEvent.findMany({ where: { action: "calllog.search", actorEmail: auditor.email } });
    expect(searches).toHaveLength(2); // one per new search; the second page is the same search
    expect(searches[0]!.after).toMatchObject({ filter: { tenantId: a }, rows: 20, more: true });
  });

  it("opens a call with the weights in force when it ran, and logs the read", async () => {
    const row = await own.caller(auditor).callLog.get({ requestId: aIds[3]! });
    expect(row).toMatchObject({ requestId: aIds[3], tenantId: a, promptTokens: 10, hasSubject: false });
    expect(row.weightsInForce).toMatchObject({ action: "endpoint.weights.set", after: [{ version: "1.0", weight: 95 }, { version: "1.1", weight: 5 }] });
    expect(await own.db.auditEvent.count({ where: { action: "calllog.read", targetId: aIds[3], actorEmail: auditor.email } })).toBe(1);
  });

  it("masks client IPs for an auditor unless a reason is given, which is audited; admins and the tenant see them", async () => {
    const range = { tenantId: a, from: t0, to: new Date(t0.getTime() + 3_600_000), limit: 5 };
    const masked = await own.caller(auditor).callLog.list(range);
    expect(new Set(masked.items.map((r) => r.clientIp))).toEqual(new Set(["203.0.113.0/24"]));
    expect((await own.caller(auditor).callLog.get({ requestId: aIds[1]! })).clientIp).toBe("203.0.113.0/24");
    // Searching by an IP would show it: refused without a reason, naming the field to fill.
    const refused = await own.caller(auditor).callLog.list({ ...range, clientIp: "203.0.113.7" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TRPCError);
    expect(refused).toMatchObject({ code: "BAD_REQUEST", cause: { field: "unmaskReason" } });
    const reason = "Breach 2026-11 investigation: which network the calls came from";
    const shown = await own.caller(auditor).callLog.list({ ...range, clientIp: "203.0.113.7", unmaskReason: reason });
    expect(shown.items[0]!.clientIp).toBe("203.0.113.7");
    const next = await own.caller(auditor).callLog.list({ ...range, unmaskReason: reason, cursor: shown.nextCursor });
    expect(next.items[0]!.clientIp).toBe("203.0.113.7");
    const events = await own.db.auditEvent.findMany({ where: { action: "calllog.ip.unmask", actorEmail: auditor.email } });
    expect(events).toHaveLength(1); // the search's next page is the same search
    expect(events[0]!.after).toMatchObject({ reason, filter: { clientIp: "203.0.113.7" } });
    expect((await own.caller(admin).callLog.list(range)).items[0]!.clientIp).toBe("203.0.113.7");
    expect((await own.caller(tenantA).callLog.list(range)).items[0]!.clientIp).toBe("203.0.113.7");
  });

  it("shows a tenant only its own rows; another tenant's call is NOT_FOUND", async () => {
    const c = own.caller(tenantA);
    const page = await c.callLog.list({ tenantId: b, limit: 200 });
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((r) => r.tenantId === a)).toBe(true);
    expect(await code(c.callLog.get({ requestId: bIds[0]! }))).toBe("NOT_FOUND");
  });

  it("refuses a malformed filter with 400 naming the field", async () => {
    expect(await code(own.caller(auditor).callLog.list({ status: 42 }))).toBe("BAD_REQUEST");
    const res = await httpMutation(admin, "kvkk.updateSettings", { defaultRetentionDays: 365, destructionIntervalDays: 200, sealGraceMinutes: 60 });
    expect(res.status).toBe(400);
    expect(res.error!.data.fieldErrors).toHaveProperty("destructionIntervalDays");
  });
});

describe("auditors read, never change", () => {
  // Mutations an auditor may call: each only reads (and records that it did).
  const readOnly = new Set(["callLog.seal.verify", "callLog.export.start", "kvkk.subject.find", "kvkk.subject.export"]);
  it("is refused every other mutation in the app", async () => {
    const mutations = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)
      .filter(([, p]) => p._def.type === "mutation")
      .map(([path]) => path)
      .filter((p) => !readOnly.has(p));
    expect(mutations.length).toBeGreaterThan(15);
    for (const path of mutations) {
      const res = await httpMutation(auditor, path, {});
      expect([path, res.status]).toEqual([path, 403]);
    }
  });
});

describe("data-subject requests", () => {
  it("find only that subject's rows, in one tenant's call log across its monthly partitions; never across tenants", async () => {
    await expect(own.caller(auditor).kvkk.subject.find({ user: "ayse@example.com.tr", reference: "KVKK-2026-17" })).rejects.toMatchObject({ code: "BAD_REQUEST", cause: { field: "tenantId" } });
    const found = await own.caller(auditor).kvkk.subject.find({ user: "ayse@example.com.tr", tenantId: a, reference: "KVKK-2026-17" });
    expect(found.rowsFound).toBe(2);
    expect(found.byTenantMonth.map((r) => [r.tenantId, r.month.toISOString().slice(0, 7), r.rows])).toEqual([
      [a, "2026-08", 1],
      [a, "2026-10", 1],
    ]);
    const mine = await own.caller(tenantA).kvkk.subject.find({ user: "ayse@example.com.tr", tenantId: b });
    expect(mine.rowsFound).toBe(2);
    expect(JSON.stringify((await own.db.auditEvent.findMany({ where: { action: "kvkk.subject.find" } })).map((e) => e.after))).not.toContain("ayse");
  });

  it("destroy that subject's rows only, with a destruction record; the auditor may not", async () => {
    const found = await own.caller(admin).kvkk.subject.find({ user: "ayse@example.com.tr", tenantId: a });
    expect(await code(own.caller(auditor).kvkk.subject.destroy({ requestId: found.requestId }))).toBe("FORBIDDEN");
    const before = Number((await own.pool.query(`SELECT count(*) AS n FROM "CallLog"`)).rows[0].n);
    const rec = await own.caller(admin).kvkk.subject.destroy({ requestId: found.requestId, method: "delete" });
    expect(rec.rowCount).toBe(2);
    expect(Number((await own.pool.query(`SELECT count(*) AS n FROM "CallLog"`)).rows[0].n)).toBe(before - 2);
    expect(Number((await own.pool.query(`SELECT count(*) AS n FROM "CallLog" WHERE "userHash" = $1 AND "tenantId" = $2`, [ayse, b])).rows[0].n)).toBe(1);
    expect(Number((await own.pool.query(`SELECT count(*) AS n FROM "CallLog" WHERE "userHash" = $1`, [hashSubject("mehmet@example.com.tr")])).rows[0].n)).toBe(1);
    expect(await own.db.destructionRecord.findUniqueOrThrow({ where: { id: rec.id! } })).toMatchObject({ reason: "subject_request", subjectHash: ayse, rowCount: 2, runByEmail: admin.email });
    expect(await own.db.dataSubjectRequest.findUniqueOrThrow({ where: { id: found.requestId } })).toMatchObject({ destructionId: rec.id });
  });
});

describe("residency", () => {
  it("flags calls served abroad with no safeguard as incidents, and registers every transfer with its safeguard", async () => {
    const range = { from: new Date(Date.UTC(2026, 9, 1)), to: new Date(Date.UTC(2026, 10, 1)) };
    // Tenant b's contract for "de" (eu-fra lies in Germany, beforeAll) was signed before its call; the Turkey-only tenant has none.
    const map = await own.caller(auditor).kvkk.residency(range);
    expect(map.incidents.map((c) => [c.tenantId, c.region, c.uncovered])).toEqual([[kv, "eu-fra", 1]]);
    expect(map.cells.filter((c) => c.tenantId === kv).map((c) => c.region).sort()).toEqual(["eu-fra", "tr-ank"]);
    const transfers = await own.caller(auditor).kvkk.transfers(range);
    expect(transfers.map((t) => [t.tenantId, t.region, t.calls, t.safeguard?.reference ?? null]).sort()).toEqual([[b, "eu-fra", 1, "BCR-9"], [kv, "eu-fra", 1, null]].sort());
    expect(await code(own.caller(tenantA).kvkk.residency(range))).toBe("FORBIDDEN");
  });
});
