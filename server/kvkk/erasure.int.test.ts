import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownDatabase } from "../test/own-db.ts";
import { insertCalls, makeTenantIn } from "../audit/test/fixtures.ts";
import { hashSubject } from "../call-log/subject-hash.ts";
import { ipIndexesOf } from "../call-log/keys/rings.ts";
import type { Actor } from "../auth/actor.ts";

let own: Awaited<ReturnType<typeof ownDatabase>>;
let tenant: string;
let admin: Actor;
const now = Date.now();
const daysAgo = (d: number) => new Date(now - d * 86_400_000);
const person = "elif@example.com.tr";
const ip = "198.51.100.23";

async function callsOf(where: string, params: unknown[] = []) {
  return (await own.pool.query<{ requestId: string; userHash: string | null; clientIpHash: string | null }>(`SELECT "requestId", "userHash", "clientIpHash" FROM "CallLog" WHERE "tenantId" = '${tenant}' AND ${where}`, params)).rows;
}

beforeAll(async () => {
  own = await ownDatabase("kule_erasure");
  tenant = await makeTenantIn(own.pool);
  const u = await own.db.user.create({ data: { email: "admin-e@t.local", name: "Admin", passwordHash: "x", membership: { create: { role: "admin" } } } });
  admin = { userId: u.id, email: u.email, name: u.name, role: "admin", tenantId: null };
  for (const d of [daysAgo(400), daysAgo(10)]) await own.pool.query(`SELECT kule_call_log_partition($1::timestamptz AT TIME ZONE 'UTC')`, [d]);
  // Elif's calls: two past a year, two within it, and one within it found only by her IP (no `user` sent).
  await insertCalls(own.pool, [daysAgo(400), daysAgo(399), daysAgo(10), daysAgo(9)].map((startedAt) => ({ tenantId: tenant, startedAt, userHash: hashSubject(person), clientIp: null })));
  const [byIp] = await insertCalls(own.pool, [{ tenantId: tenant, startedAt: daysAgo(8), clientIp: null }]);
  await own.pool.query(`UPDATE "CallLog" SET "clientIpHash" = $1 WHERE "requestId" = $2`, [ipIndexesOf(ip)[0], byIp]);
  await insertCalls(own.pool, [{ tenantId: tenant, startedAt: daysAgo(8), userHash: hashSubject("someone-else"), clientIp: null }]);
}, 120_000);
afterAll(() => own?.close());

describe("a data subject's erasure, under the rules the periodic run obeys", () => {
  it("finds the person by the user identifier and by a client IP, in one request", async () => {
    const found = await own.caller(admin).kvkk.subject.find({ user: person, ip, tenantId: tenant });
    expect(found.rowsFound).toBe(5);
    const byIpOnly = await own.caller(admin).kvkk.subject.find({ ip, tenantId: tenant });
    expect(byIpOnly.rowsFound).toBe(1);
    await expect(own.caller(admin).kvkk.subject.find({ tenantId: tenant })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    // Neither the identifier nor the IP is kept with the request or in its audit event.
    const events = JSON.stringify((await own.db.auditEvent.findMany({ where: { action: "kvkk.subject.find" } })).map((e) => e.after));
    expect(events).not.toContain(ip);
    expect(JSON.stringify(await own.db.dataSubjectRequest.findMany())).not.toContain(ip);
  });

  it("erases nothing under a legal hold on the person, and answers with the hold", async () => {
    const hold = await own.caller(admin).kvkk.holds.place({ user: person, reason: "Dispute 2026/118 before the consumer court" });
    const found = await own.caller(admin).kvkk.subject.find({ user: person, tenantId: tenant });
    const answer = await own.caller(admin).kvkk.subject.destroy({ requestId: found.requestId, method: "delete" });
    expect(answer).toMatchObject({ id: null, rowCount: 0, held: ["Dispute 2026/118 before the consumer court"] });
    expect(await callsOf(`"userHash" = $1`, [hashSubject(person)])).toHaveLength(4);
    expect(await own.db.auditEvent.count({ where: { action: "kvkk.subject.erasure_held", targetId: found.requestId } })).toBe(1);
    expect((await own.db.dataSubjectRequest.findUniqueOrThrow({ where: { id: found.requestId } })).closedAt).toBeNull();
    await own.caller(admin).kvkk.holds.release({ id: hold.id });
  });

  it("inside Law 5651's minimum erases only the identifier and keeps the traffic fields until the minimum, saying until when", async () => {
    await own.pool.query(`UPDATE "KvkkSettings" SET "trafficLogMinDays" = 365 WHERE id = 'singleton'`);
    const job = await own.db.exportJob.create({ data: { format: "csv", filter: { tenantId: tenant }, tenantScope: tenant, requestedById: admin.userId, requestedByEmail: admin.email, state: "done" } });
    const other = await own.db.exportJob.create({ data: { format: "csv", filter: { tenantId: "someone-elses" }, requestedById: admin.userId, requestedByEmail: admin.email, state: "done" } });
    const found = await own.caller(admin).kvkk.subject.find({ user: person, ip, tenantId: tenant });
    const answer = await own.caller(admin).kvkk.subject.destroy({ requestId: found.requestId, method: "delete" });
    expect(answer).toMatchObject({ rowCount: 2, unlinked: 2, keptWhole: 1, trafficLogMinDays: 365, held: [], exportsDeleted: 1 });
    expect(Math.abs(answer.keptUntil!.getTime() - daysAgo(8 - 365).getTime())).toBeLessThan(60_000);
    // The two past the minimum are gone; the three within it stay, none carrying her identifier.
    expect(await callsOf(`"startedAt" < $1`, [daysAgo(300)])).toEqual([]);
    const young = await callsOf(`"startedAt" > $1 AND ("userHash" IS NULL OR "userHash" <> $2)`, [daysAgo(300), hashSubject("someone-else")]);
    expect(young.map((r) => r.userHash)).toEqual([null, null, null]);
    expect(await callsOf(`"userHash" = $1`, [hashSubject("someone-else")])).toHaveLength(1);
    const records = await own.db.destructionRecord.findMany({ where: { reason: "subject_request" }, orderBy: { runAt: "asc" } });
    expect(records.map((r) => [r.store, r.method, r.rowCount])).toEqual([
      ["call_log", "delete", 2],
      ["call_log", "unlink", 2],
      ["exports", "delete", 1],
    ]);
    // The erasure reached the tenant's export, not another tenant's.
    expect(await own.db.exportJob.findUnique({ where: { id: job.id } })).toBeNull();
    expect(await own.db.exportJob.findUnique({ where: { id: other.id } })).not.toBeNull();
  });
});
