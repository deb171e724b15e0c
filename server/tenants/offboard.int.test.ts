import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { caller, makeActor, testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { authenticate } from "../auth/authenticate.ts";
import { hashPassword } from "../auth/password.ts";
import { loadActor } from "../trpc/context.ts";
import { runDestruction } from "../kvkk/destruction.ts";
import { ownDatabase } from "../test/own-db.ts";
import { insertCalls, makeTenantIn } from "../audit/test/fixtures.ts";
import type { Actor } from "../auth/actor.ts";

let stopSync: () => void;
beforeAll(() => {
  stopSync = startClusterSync(testDb(), testDrivers());
});
afterAll(() => stopSync?.());

const isCode = (code: string) => (e: unknown) => e instanceof TRPCError && e.code === code;

describe("a tenant that leaves", () => {
  it("has its keys refused by the gateway at once and its people signed out, while its call log stays for its retention", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey();
    const person = await makeActor("tenant", t.tenant.id);
    const admin = caller(await makeActor("admin"));
    await testDb().user.update({ where: { id: person.userId }, data: { passwordHash: await hashPassword("offboard-test-pass") } });
    expect(await authenticate(testDb(), person.email, "offboard-test-pass", 5)).toMatchObject({ ok: true });
    const gw = await startTestGateway();
    const call = () => fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${t.secret}` }, body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "hi" }], max_tokens: 5 }) });
    try {
      expect((await call()).status).toBe(200);
      await gw.gateway.callLog.flush();
      const tenant = await testDb().tenant.findUniqueOrThrow({ where: { id: t.tenant.id } });

      await expect(admin.tenant.offboard({ id: t.tenant.id, confirmSlug: "not-its-slug", expectedUpdatedAt: tenant.updatedAt })).rejects.toThrow(`confirmSlug: type the tenant's slug, ${t.tenant.slug}, to confirm`);
      await expect(caller(person).tenant.offboard({ id: t.tenant.id, confirmSlug: t.tenant.slug, expectedUpdatedAt: tenant.updatedAt })).rejects.toSatisfy(isCode("FORBIDDEN"));
      const done = await admin.tenant.offboard({ id: t.tenant.id, confirmSlug: t.tenant.slug, expectedUpdatedAt: tenant.updatedAt });
      expect(done).toMatchObject({ keysRevoked: 1, retentionDays: 730, tenant: { status: "offboarded" } });

      const t0 = Date.now();
      await expect.poll(async () => (await call()).status, { timeout: 1000, interval: 20 }).toBe(401);
      expect(Date.now() - t0).toBeLessThan(1000);
      expect(await authenticate(testDb(), person.email, "offboard-test-pass", 5)).toMatchObject({ ok: false });
      expect(await loadActor(testDb(), person.userId)).toBeNull();
      // Nothing more can be done to or for it, and its history stays.
      await expect(admin.tenant.update({ id: t.tenant.id, expectedUpdatedAt: done.tenant.updatedAt, rpmLimit: 5 })).rejects.toSatisfy(isCode("CONFLICT"));
      await expect(admin.apiKey.create({ tenantId: t.tenant.id, name: "after offboarding" })).rejects.toSatisfy(isCode("NOT_FOUND"));
      expect(await testDb().callLog.count({ where: { tenantId: t.tenant.id, startedAt: { lt: done.tenant.offboardedAt! } } })).toBe(1);
      const audit = await testDb().auditEvent.findFirstOrThrow({ where: { action: "tenant.offboard", targetId: t.tenant.id } });
      expect(audit.before).toMatchObject({ status: "active" });
      expect(audit.after).toMatchObject({ status: "offboarded", keysRevoked: 1 });
    } finally {
      await gw.close();
    }
  });

  it("has its call log destroyed, with a destruction record, once its retention has passed", async () => {
    const own = await ownDatabase("kule_offboard");
    try {
      const tenantId = await makeTenantIn(own.pool);
      await own.pool.query(`INSERT INTO "TenantRetention" ("tenantId", days, method, "updatedAt") VALUES ($1, 30, 'delete', now())`, [tenantId]);
      await insertCalls(own.pool, [{ tenantId, startedAt: new Date(Date.now() - 40 * 86_400_000) }, { tenantId, startedAt: new Date() }]);
      const u = await own.db.user.create({ data: { email: "admin-o@t.local", name: "Admin", passwordHash: "x", membership: { create: { role: "admin" } } } });
      const admin: Actor = { userId: u.id, email: u.email, name: u.name, role: "admin", tenantId: null };
      const tenant = await own.db.tenant.findUniqueOrThrow({ where: { id: tenantId } });
      const done = await own.caller(admin).tenant.offboard({ id: tenantId, confirmSlug: tenant.slug, expectedUpdatedAt: tenant.updatedAt });
      expect(done.retentionDays).toBe(30);
      expect(done.callLogKeptUntil.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
      await runDestruction(own.pool, { actor: null });
      expect(await own.db.callLog.count({ where: { tenantId } })).toBe(1); // the recent row stays for its 30 days
      expect(await own.db.destructionRecord.findFirst({ where: { tenantId } })).toMatchObject({ rowCount: 1, reason: "retention" });
    } finally {
      await own.close();
    }
  });
});
