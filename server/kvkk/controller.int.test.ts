import { beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor, makeTenant, testDb, uid } from "../test/harness.ts";
import type { Actor } from "../auth/actor.ts";

let a: { id: string }, b: { id: string };
let tenantA: Actor, tenantB: Actor, auditor: Actor, admin: Actor;
let callA: string;

beforeAll(async () => {
  [a, b] = [await makeTenant(), await makeTenant()];
  [tenantA, tenantB, auditor, admin] = [await makeActor("tenant", a.id), await makeActor("tenant", b.id), await makeActor("auditor"), await makeActor("admin")];
  callA = `ctl-${uid()}`;
  await testDb().$executeRaw`INSERT INTO "CallLog" ("requestId", "tenantId", "startedAt", "endedAt", status, region) VALUES (${callA}, ${a.id}, now(), now(), 200, 'tr-ist'), (${`ctl-${uid()}`}, ${a.id}, now(), now(), 200, 'us-east')`;
  await caller(admin).kvkk.safeguards.create({ tenantId: a.id, destination: "de", importer: "Rechen GmbH, Frankfurt", mechanism: "bcr", reference: "BCR-CTL", signedAt: new Date(Date.now() - 86_400_000) });
});

describe("the controller's view (a tenant's own)", () => {
  it("shows the tenant where its calls were served, the safeguards recorded for it, and staff reads of its data", async () => {
    await caller(auditor).callLog.get({ requestId: callA });
    await caller(auditor).callLog.list({ limit: 5, tenantId: b.id });
    const view = await caller(tenantA).kvkk.controller();
    expect(view.safeguards.map((s) => s.reference)).toEqual(["BCR-CTL"]);
    expect(view.residency.map((c) => [c.region, c.calls, c.incident]).sort()).toEqual([["tr-ist", 1, false], ["us-east", 1, true]]);
    expect(view.staffReads.filter((r) => r.actorEmail === auditor.email).map((r) => [r.action, r.targetId])).toEqual([["calllog.read", callA]]);
  });

  it("another tenant sees none of it: not the safeguard, not the reads of the first tenant's calls", async () => {
    const view = await caller(tenantB).kvkk.controller();
    expect(view.safeguards).toEqual([]);
    expect(view.residency).toEqual([]);
    expect(view.staffReads.filter((r) => r.actorEmail === auditor.email).map((r) => r.action)).toEqual(["calllog.search"]);
  });

  it("lets the tenant shorten its own retention within the platform's period, audited; never lengthen it, nor set another tenant's", async () => {
    const { retention } = await caller(tenantA).kvkk.controller();
    expect(retention).toMatchObject({ days: null, effectiveDays: retention.platformDays });
    const longer = await caller(tenantA).kvkk.setOwnRetention({ days: retention.platformDays + 1 }).catch((e: unknown) => e);
    expect(longer).toMatchObject({ code: "BAD_REQUEST", cause: { field: "days" } });
    const shorter = Math.max(retention.legalMinDays ?? 1, Math.floor(retention.platformDays / 2));
    await caller(tenantA).kvkk.setOwnRetention({ days: shorter, method: "anonymize" });
    expect((await caller(tenantA).kvkk.controller()).retention).toMatchObject({ days: shorter, method: "anonymize", effectiveDays: shorter });
    // The tenant's choice is the one the periodic destruction reads, and it is audited; B's is untouched.
    expect((await caller(admin).kvkk.settings()).tenants.find((t) => t.id === a.id)).toMatchObject({ retentionDays: shorter, method: "anonymize" });
    expect(await testDb().auditEvent.count({ where: { action: "kvkk.retention.set", targetId: a.id, actorEmail: tenantA.email } })).toBe(1);
    expect((await caller(tenantB).kvkk.controller()).retention.days).toBeNull();
  });
});
