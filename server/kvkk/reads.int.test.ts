import { beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor, makeTenant, testDb, uid } from "../test/harness.ts";
import type { Actor } from "../auth/actor.ts";

let tenant: Actor, auditor: Actor;
let requestId: string;

beforeAll(async () => {
  const t = await makeTenant();
  [tenant, auditor] = [await makeActor("tenant", t.id), await makeActor("auditor")];
  requestId = `read-${uid()}`;
  await testDb().$executeRaw`INSERT INTO "CallLog" ("requestId", "tenantId", "startedAt", "endedAt", status, "clientIp") VALUES (${requestId}, ${t.id}, now(), now(), 200, '203.0.113.9')`;
});

const logged = (actor: Actor, action: string) => testDb().auditEvent.findMany({ where: { actorEmail: actor.email, action } });

describe("reads of personal data are logged, a tenant's and the audit log's own included (KVKK Art. 12)", () => {
  it("a tenant's search of its call log and its opening of a call are audit events", async () => {
    await caller(tenant).callLog.list({ limit: 20 });
    await caller(tenant).callLog.get({ requestId });
    expect(await logged(tenant, "calllog.search")).toHaveLength(1);
    expect((await logged(tenant, "calllog.read")).map((e) => e.targetId)).toEqual([requestId]);
  });

  it("reading the audit log is itself an audit event, once per search, not per page", async () => {
    const first = await caller(auditor).audit.list({ limit: 1 });
    expect(first.nextCursor).not.toBeNull();
    await caller(auditor).audit.list({ limit: 1, cursor: first.nextCursor! });
    expect(await logged(auditor, "audit.read")).toHaveLength(1);
  });
});

describe("one person is never searched across tenants (processor acting per controller)", () => {
  it("staff filtering the call log by a subject hash must name the tenant", async () => {
    const subjectHash = "ab".repeat(32);
    await expect(caller(auditor).callLog.list({ limit: 20, subjectHash })).rejects.toMatchObject({ code: "BAD_REQUEST", cause: { field: "tenantId" } });
    await expect(caller(auditor).callLog.export.start({ format: "csv", filter: { subjectHash } })).rejects.toMatchObject({ code: "BAD_REQUEST", cause: { field: "tenantId" } });
    expect((await caller(auditor).callLog.list({ limit: 20, subjectHash, tenantId: tenant.tenantId })).items).toEqual([]);
  });
});
