import { beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { caller, httpMutation, makeActor, makeTenant, testDb, uid } from "../test/harness.ts";
import { hashSubject } from "../call-log/subject-hash.ts";
import type { Actor } from "../auth/actor.ts";

const codeOf = (p: Promise<unknown>) => p.then(() => "OK", (e: unknown) => (e instanceof TRPCError ? e.code : String(e)));
let a: { id: string }, b: { id: string };
let tenantA: Actor, tenantB: Actor, admin: Actor, auditor: Actor;
let person: string;

async function call(tenantId: string, user: string) {
  const id = `app-${uid()}`;
  await testDb().$executeRaw`INSERT INTO "CallLog" ("requestId", "tenantId", "startedAt", "endedAt", status, "userHash") VALUES (${id}, ${tenantId}, now(), now(), 200, ${hashSubject(user)})`;
  return id;
}

const intake = { channel: "kep" as const, identityCheck: "Application from the KEP address on file", right: "erasure" as const };

beforeAll(async () => {
  [a, b] = [await makeTenant(), await makeTenant()];
  [tenantA, tenantB, admin, auditor] = [await makeActor("tenant", a.id), await makeActor("tenant", b.id), await makeActor("admin"), await makeActor("auditor")];
  person = `ayse-${uid()}@example.com.tr`;
  await call(a.id, person);
  await call(a.id, person);
  await call(b.id, person);
});

describe("data subjects' applications (KVKK Art. 11, 13)", () => {
  it("a tenant records an application to itself: intake kept, due 30 days after receipt, rows counted in its own call log only", async () => {
    const receivedAt = new Date("2026-12-01T09:00:00Z");
    const app = await caller(tenantA).kvkk.applications.open({ user: person, tenantId: b.id, receivedAt, ...intake });
    expect(app).toMatchObject({ tenantId: a.id, rowsFound: 2, channel: "kep", right: "erasure", status: "received" });
    expect(app.dueAt?.toISOString()).toBe("2026-12-31T09:00:00.000Z");
    const listed = await caller(tenantA).kvkk.applications.list();
    expect(listed.map((x) => x.id)).toContain(app.id);
    expect(listed[0]).not.toHaveProperty("subjectHash");
  });

  it("staff must name the tenant: one person is never searched across tenants", async () => {
    await expect(caller(admin).kvkk.applications.open({ user: person, receivedAt: new Date(), ...intake })).rejects.toMatchObject({ code: "BAD_REQUEST", cause: { field: "tenantId" } });
  });

  it("another tenant neither sees nor answers it; the auditor sees it but cannot act", async () => {
    const app = await caller(tenantA).kvkk.applications.open({ user: person, receivedAt: new Date(), ...intake });
    expect((await caller(tenantB).kvkk.applications.list()).map((x) => x.id)).not.toContain(app.id);
    expect(await codeOf(caller(tenantB).kvkk.applications.answer({ id: app.id, expectedUpdatedAt: app.updatedAt, answer: "Trying to answer another's" }))).toBe("NOT_FOUND");
    expect((await caller(auditor).kvkk.applications.list()).map((x) => x.id)).toContain(app.id);
    expect(await codeOf(caller(auditor).kvkk.applications.refuse({ id: app.id, expectedUpdatedAt: app.updatedAt, reason: "Auditors do not answer applications" }))).toBe("FORBIDDEN");
  });

  it("the tenant erases the applicant's rows in its own call log, and the application is answered with the destruction record", async () => {
    const app = await caller(tenantA).kvkk.applications.open({ user: person, receivedAt: new Date(), ...intake });
    const { application, destruction } = await caller(tenantA).kvkk.applications.erase({ id: app.id, expectedUpdatedAt: app.updatedAt, method: "delete" });
    expect(destruction.rowCount).toBe(2);
    expect(application.status).toBe("answered");
    expect(application.answer).toContain(destruction.id);
    expect(await testDb().callLog.count({ where: { userHash: hashSubject(person), tenantId: a.id } })).toBe(0);
    expect(await testDb().callLog.count({ where: { userHash: hashSubject(person), tenantId: b.id } })).toBe(1);
    expect(await testDb().destructionRecord.findUniqueOrThrow({ where: { id: destruction.id! } })).toMatchObject({ reason: "subject_request", tenantId: a.id, runByEmail: tenantA.email });
  });

  it("the erasure answer is stored in the language chosen for it, the answerer's page's by default", async () => {
    const onTurkishPage = await caller(tenantA).kvkk.applications.open({ user: `tr-${uid()}`, receivedAt: new Date(), ...intake });
    const tr = await caller(tenantA, { locale: "tr" }).kvkk.applications.erase({ id: onTurkishPage.id, expectedUpdatedAt: onTurkishPage.updatedAt, method: "anonymize" });
    expect(tr.application.answer).toBe(`Bu hizmetin çağrı kaydındaki kişisel verileriniz anonim hale getirildi: 0 kayıt, imha kaydı ${tr.destruction.id}.`);
    const chosen = await caller(tenantA).kvkk.applications.open({ user: `tr-${uid()}`, receivedAt: new Date(), ...intake });
    const en = await caller(tenantA, { locale: "tr" }).kvkk.applications.erase({ id: chosen.id, expectedUpdatedAt: chosen.updatedAt, method: "delete", answerLocale: "en" });
    expect(en.application.answer).toMatch(/^Your data in this service's call log was erased: 0 record\(s\)/);
  });

  it("refuses a closed application in the reader's language, with the state it is in", async () => {
    const closed = await caller(tenantA).kvkk.applications.open({ user: `tr-${uid()}`, receivedAt: new Date(), ...intake });
    const refused = await caller(tenantA).kvkk.applications.refuse({ id: closed.id, expectedUpdatedAt: closed.updatedAt, reason: "The identity could not be verified." });
    const again = { id: closed.id, expectedUpdatedAt: refused.updatedAt, answer: "Answering after refusing" };
    const tr = await httpMutation(tenantA, "kvkk.applications.answer", again, { locale: "tr" });
    expect(tr).toMatchObject({ status: 409, error: { message: "Bu başvuru zaten reddedildi." } });
    expect((await httpMutation(tenantA, "kvkk.applications.answer", again)).error?.message).toBe("This application was already refused.");
  });

  it("a refusal carries its reason; a closed application cannot be answered again; a stale answer is refused", async () => {
    const app = await caller(tenantB).kvkk.applications.open({ user: person, receivedAt: new Date(Date.now() - 40 * 86_400_000), ...intake, right: "request_information" });
    const listed = (await caller(tenantB).kvkk.applications.list()).find((x) => x.id === app.id)!;
    expect(listed).toMatchObject({ overdue: true, open: true });
    expect(await codeOf(caller(tenantB).kvkk.applications.answer({ id: app.id, expectedUpdatedAt: new Date(app.updatedAt.getTime() - 1000), answer: "An answer from a stale page" }))).toBe("CONFLICT");
    const refused = await caller(tenantB).kvkk.applications.refuse({ id: app.id, expectedUpdatedAt: app.updatedAt, reason: "The applicant's identity could not be verified (Art. 13)." });
    expect(refused).toMatchObject({ status: "refused", refusalReason: "The applicant's identity could not be verified (Art. 13).", answeredByEmail: tenantB.email });
    expect(await codeOf(caller(tenantB).kvkk.applications.answer({ id: app.id, expectedUpdatedAt: refused.updatedAt, answer: "Answering after refusing" }))).toBe("CONFLICT");
  });
});
