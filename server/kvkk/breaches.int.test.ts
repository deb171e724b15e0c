import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { ownDatabase } from "../test/own-db.ts";
import { hoursAgo, insertCalls, makeTenantIn } from "../audit/test/fixtures.ts";
import { sealAll } from "../audit/seal/seal.ts";
import type { Actor } from "../auth/actor.ts";
import type { Role } from "../db/generated/enums.ts";
import { hashSubjectWith, keyVersion } from "../call-log/keys/keyring.ts";
import { randomBytes } from "node:crypto";

let own: Awaited<ReturnType<typeof ownDatabase>>;
const actors = {} as Record<Role, Actor>;
let a: string, b: string;
let aIds: string[];
const codeOf = (p: Promise<unknown>) => p.then(() => "OK", (e: unknown) => (e instanceof TRPCError ? e.code : String(e)));

beforeAll(async () => {
  own = await ownDatabase("kule_breach");
  for (const role of ["admin", "operator", "auditor", "tenant"] as Role[]) {
    const u = await own.db.user.create({ data: { email: `${role}-b@t.local`, name: role, passwordHash: "x", membership: { create: { role, tenantId: null } } } });
    actors[role] = { userId: u.id, email: u.email, name: u.name, role, tenantId: null };
  }
  [a, b] = [await makeTenantIn(own.pool, { slug: "ege-health" }), await makeTenantIn(own.pool)];
  const hour = hoursAgo(5);
  aIds = await insertCalls(own.pool, [0, 1, 2].map((i) => ({ tenantId: a, startedAt: new Date(hour.getTime() + i * 60_000), userHash: i < 2 ? "aa".repeat(32) : "bb".repeat(32) })));
  await insertCalls(own.pool, [{ tenantId: b, startedAt: new Date(hour.getTime() + 30_000) }]);
  await sealAll(own.pool, { now: new Date(), graceMinutes: 60 });
}, 120_000);
afterAll(() => own?.close());

describe("breaches (KVKK Art. 12(5), Board decision 2019/10)", () => {
  it("a failed chain check opens an incident once, with the 72-hour clock running from the check", async () => {
    await own.pool.query(`UPDATE "CallLog" SET "promptTokens" = 999 WHERE "requestId" = $1`, [aIds[0]]);
    const before = Date.now();
    const report = await own.caller(actors.auditor).callLog.seal.verify();
    expect(report.ok).toBe(false);
    expect(report.breachId).toBeTruthy();
    const again = await own.caller(actors.auditor).callLog.seal.verify();
    expect(again.breachId).toBeNull();
    const list = await own.caller(actors.auditor).kvkk.breaches.list();
    expect(list).toHaveLength(1);
    const inc = list[0]!;
    expect(inc).toMatchObject({ detector: "chain_check", status: "open", late: false });
    expect(inc.awareAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(inc.boardDueAt.getTime() - inc.awareAt.getTime()).toBe(72 * 3_600_000);
    expect(inc.alertRequestedAt).not.toBeNull();
  });

  it("finds the affected tenants and data subjects by query, and drafts a notice for each controller", async () => {
    const [inc] = await own.caller(actors.admin).kvkk.breaches.list();
    const { affected, notices } = await own.caller(actors.auditor).kvkk.breaches.get({ id: inc!.id });
    expect(affected.map((x) => [x.tenantId, x.calls, x.subjects]).sort()).toEqual([[a, 3, 2], [b, 1, 0]].sort());
    const toA = notices.find((n) => n.tenantId === a)!.text;
    expect(toA).toContain("To ege-health, as data controller");
    expect(toA).toContain("3 of your calls, from 2 distinct end users");
    expect(toA).toContain("72 hours");
  });

  it("drafts the notices in the language chosen for them, in the law's terms and the language's own dates and numbers", async () => {
    const [inc] = await own.caller(actors.admin).kvkk.breaches.list();
    const { notices } = await own.caller(actors.auditor).kvkk.breaches.get({ id: inc!.id, noticeLocale: "tr" });
    const toA = notices.find((n) => n.tenantId === a)!;
    expect(toA.locale).toBe("tr");
    expect(toA.text).toContain("ege-health (veri sorumlusu) dikkatine (Kurul kararı 2019/10 ve veri işleme sözleşmemiz):");
    expect(toA.text).toContain("Veri işleyeniniz olarak");
    // What the chain check wrote into the incident (stored in English) reads in the notice's language too.
    expect(toA.text).toContain("Çağrı kaydı ");
    expect(toA.text).toContain("Zincir denetiminin bulduğu: ");
    expect(toA.text).not.toContain("The chain check found");
    expect(toA.text).toContain("2 farklı ilgili kişiye (diğerleri tanımlanmamıştır) ait 3 çağrınız");
    expect(toA.text).toMatch(/Kurul'a, öğrenilmesinden itibaren 72 saat içinde .* en geç \d+ [A-ZÇĞİÖŞÜ][a-zçğıöşü]+ \d{4} \d\d:\d\d UTC tarihine kadar/);
  });

  it("an admin fills the Board's form and records the notification, against the version read; the auditor cannot", async () => {
    const [inc] = await own.caller(actors.admin).kvkk.breaches.list();
    const form = { id: inc!.id, title: inc!.title, description: inc!.description, dataCategories: "Call records: client IP, key, times, tokens", subjectCategories: "Tenants' end users", consequences: "Usage figures may be wrong", measures: "Rows restored from backup, access reviewed", contact: "DPO, dpo@kule.example", status: "board_notified" as const, boardNotifiedAt: new Date() };
    expect(await codeOf(own.caller(actors.auditor).kvkk.breaches.update({ ...form, expectedUpdatedAt: inc!.updatedAt }))).toBe("FORBIDDEN");
    expect(await codeOf(own.caller(actors.admin).kvkk.breaches.update({ ...form, expectedUpdatedAt: new Date(inc!.updatedAt.getTime() - 1000) }))).toBe("CONFLICT");
    await own.caller(actors.admin).kvkk.breaches.update({ ...form, expectedUpdatedAt: inc!.updatedAt });
    expect((await own.caller(actors.auditor).kvkk.breaches.list())[0]).toMatchObject({ status: "board_notified", hoursLeft: null, late: false });
  });

  it("calls served abroad with no safeguard open a residency incident when the transfer register takes them in", async () => {
    await insertCalls(own.pool, [{ tenantId: b, startedAt: hoursAgo(4), region: "us-east" }]);
    await own.caller(actors.auditor).kvkk.transfers({ from: hoursAgo(48), to: new Date() });
    const res = (await own.caller(actors.auditor).kvkk.breaches.list()).filter((x) => x.detector === "residency");
    expect(res).toHaveLength(1);
    expect(res[0]!.title).toContain("served abroad with no transfer safeguard");
  });

  it("a manual incident runs the clock from the awareness the admin states; late when past 72 hours", async () => {
    await own.caller(actors.admin).kvkk.breaches.create({ title: "Lost laptop", description: "A laptop with an export was stolen from a car", awareAt: new Date(Date.now() - 80 * 3_600_000) });
    expect((await own.caller(actors.admin).kvkk.breaches.list()).find((x) => x.title === "Lost laptop")).toMatchObject({ late: true, detector: "manual" });
  });

  it("counts a person who called before and after a key rotation once at least, and says the count is a range and why", async () => {
    const [v1, v2] = ["v1", "v2"].map((v) => keyVersion("standard", v, randomBytes(32).toString("base64")));
    const c = await makeTenantIn(own.pool, { slug: "rotated-tenant" });
    const at = (m: number) => new Date(hoursAgo(2).getTime() + m * 60_000);
    const rows = [
      { user: "ayse@example.com.tr", k: v1!, m: 1 },
      { user: "ayse@example.com.tr", k: v2!, m: 2 },
      { user: "ayse@example.com.tr", k: v2!, m: 3 },
    ];
    const ids = await insertCalls(own.pool, rows.map((r) => ({ tenantId: c, startedAt: at(r.m), userHash: hashSubjectWith(r.k, r.user) })));
    await own.pool.query(`UPDATE "CallLog" c SET "userHashKeyVersion" = v.version FROM unnest($1::text[], $2::text[]) AS v(id, version) WHERE c."requestId" = v.id`, [ids, rows.map((r) => r.k.version)]);
    const inc = await own.caller(actors.admin).kvkk.breaches.create({ title: "Rotated period", description: "A period spanning a key rotation", awareAt: new Date(), occurredFrom: at(0), occurredTo: at(10) });
    const { affected, notices } = await own.caller(actors.auditor).kvkk.breaches.get({ id: inc.id });
    expect(affected).toEqual([{ tenantId: c, tenantSlug: "rotated-tenant", calls: 3, subjects: 1, subjectsAtMost: 2, keyVersions: 2 }]);
    expect(notices[0]!.text).toContain("from between 1 and 2 distinct end users");
    expect(notices[0]!.text).toContain("one-way hashes under 2 key versions");
    const tr = await own.caller(actors.auditor).kvkk.breaches.get({ id: inc.id, noticeLocale: "tr" });
    expect(tr.notices[0]!.text).toContain("en az 1, en fazla 2 farklı ilgili kişiye");

    // A second person, only after the rotation: at least 2 (under v2), at most 3.
    await insertCalls(own.pool, [{ tenantId: c, startedAt: at(4), userHash: hashSubjectWith(v2!, "mehmet@example.com.tr") }]);
    await own.pool.query(`UPDATE "CallLog" SET "userHashKeyVersion" = 'v2' WHERE "tenantId" = $1 AND "userHashKeyVersion" IS NULL`, [c]);
    expect((await own.caller(actors.auditor).kvkk.breaches.get({ id: inc.id })).affected[0]).toMatchObject({ calls: 4, subjects: 2, subjectsAtMost: 3 });
  });
});
