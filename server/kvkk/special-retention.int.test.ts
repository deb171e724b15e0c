import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownDatabase } from "../test/own-db.ts";
import { insertCalls, makeTenantIn } from "../audit/test/fixtures.ts";
import { makeEndpoint } from "../test/harness.ts";
import type { Actor } from "../auth/actor.ts";

let own: Awaited<ReturnType<typeof ownDatabase>>;
let h: string, n: string, endpointId: string, endpointSlug: string;
let admin: Actor, auditor: Actor, tenantH: Actor, tenantN: Actor;
const now = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 30 * 60_000);
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
const refusal = (p: Promise<unknown>) => p.then(() => null, (e: { code?: string; cause?: { field?: string }; message?: string }) => ({ code: e.code, field: e.cause?.field, message: e.message }));

async function actorIn(role: Actor["role"], tenantId: string | null = null): Promise<Actor> {
  const x = await own.db.user.create({ data: { email: `${role}-${randomUUID().slice(0, 8)}@t.local`, name: role, passwordHash: "x", membership: { create: { role, tenantId } } } });
  return { userId: x.id, email: x.email, name: x.name, role, tenantId };
}

beforeAll(async () => {
  own = await ownDatabase("kule_special_ret");
  await own.pool.query(`UPDATE "KvkkSettings" SET "defaultRetentionDays" = 730, "specialRetentionMaxDays" = 90, "trafficLogMinDays" = NULL WHERE id = 'singleton'`);
  await own.pool.query("SELECT kule_call_log_ensure_partitions(3)");
  await own.pool.query(`SELECT kule_call_log_partition($1::timestamptz AT TIME ZONE 'UTC')`, [daysAgo(120)]);
  await own.pool.query(`SELECT kule_call_log_partition($1::timestamptz AT TIME ZONE 'UTC')`, [daysAgo(30)]);
  [h, n] = [await makeTenantIn(own.pool), await makeTenantIn(own.pool)];
  const { endpoint } = await makeEndpoint(own.db);
  [endpointId, endpointSlug] = [endpoint.id, endpoint.slug];
  [admin, auditor, tenantH, tenantN] = [await actorIn("admin"), await actorIn("auditor"), await actorIn("tenant", h), await actorIn("tenant", n)];
  await own.caller(admin).kvkk.special.mark({ tenantId: h, category: "health" });
  await own.caller(admin).kvkk.special.mark({ endpointId, category: "biometric" });
}, 120_000);
afterAll(() => own?.close());

describe("the special ceiling on retention (KVKK Art. 6)", () => {
  it("refuses a special tenant's retention above the ceiling, naming the field and the ceiling, whoever sets it", async () => {
    expect(await refusal(own.caller(admin).kvkk.setTenantRetention({ tenantId: h, days: 200, method: "delete" }))).toMatchObject({ code: "BAD_REQUEST", field: "days", message: expect.stringContaining("at most 90 days") });
    expect(await refusal(own.caller(tenantH).kvkk.setOwnRetention({ days: 91 }))).toMatchObject({ code: "BAD_REQUEST", field: "days", message: expect.stringContaining("special categories") });
    expect(await own.db.tenantRetention.count()).toBe(0);
    await own.caller(tenantH).kvkk.setOwnRetention({ days: 60 });
    // Another tenant keeps the platform's period.
    await own.caller(admin).kvkk.setTenantRetention({ tenantId: n, days: 400, method: "delete" });
    expect(await own.db.tenantRetention.count()).toBe(2);
  });

  it("shows the ceiling where retention is set: the special tenant's range, the endpoint's calls, the admin's table", async () => {
    expect((await own.caller(tenantH).kvkk.controller()).retention).toMatchObject({ special: true, platformDays: 90, effectiveDays: 60, specialCeilingDays: 90 });
    await insertCalls(own.pool, [{ tenantId: n, startedAt: daysAgo(1), endpointId }]);
    expect((await own.caller(tenantN).kvkk.controller()).retention).toMatchObject({ special: false, platformDays: 730, effectiveDays: 400, specialCeilingDays: 90, specialEndpoints: [endpointSlug] });
    const settings = await own.caller(auditor).kvkk.settings();
    expect(settings).toMatchObject({ specialCeilingDays: 90, specialEndpoints: [endpointSlug] });
    // A retention set before the marking is shown as the ceiling that now applies.
    await own.pool.query(`UPDATE "TenantRetention" SET days = 500 WHERE "tenantId" = $1`, [h]);
    expect((await own.caller(admin).kvkk.settings()).tenants.find((t) => t.id === h)).toMatchObject({ retentionDays: 500, effectiveDays: 90 });
  });

  it("destruction keeps a special endpoint's calls no longer than the ceiling, whatever the calling tenant's retention", async () => {
    const [viaSpecialOld] = await insertCalls(own.pool, [{ tenantId: n, startedAt: daysAgo(120), endpointId }]);
    const [otherOld] = await insertCalls(own.pool, [{ tenantId: n, startedAt: daysAgo(120), endpointId: "ep-plain" }]);
    const [viaSpecialNew] = await insertCalls(own.pool, [{ tenantId: n, startedAt: daysAgo(30), endpointId }]);
    const [hOld] = await insertCalls(own.pool, [{ tenantId: h, startedAt: daysAgo(120), endpointId: "ep-plain" }]);
    await own.caller(admin).kvkk.runDestruction();
    const left = (await own.db.callLog.findMany({ select: { requestId: true } })).map((r) => r.requestId);
    expect(left).not.toContain(viaSpecialOld);
    expect(left).not.toContain(hOld);
    expect(left).toEqual(expect.arrayContaining([otherOld, viaSpecialNew]));
    const rec = await own.db.destructionRecord.findFirstOrThrow({ where: { tenantId: n } });
    expect(rec).toMatchObject({ rowCount: 1, method: "delete" });
    expect(rec.policy).toMatchObject({ endpointId, specialCategory: "biometric", days: 90, tenantDays: 400 });
  });
});
