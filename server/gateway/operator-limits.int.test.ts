import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { caller, makeActor, testDb, testDrivers, uid } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";

let stopSync: () => void;
beforeAll(() => {
  stopSync = startClusterSync(testDb(), testDrivers());
});
afterAll(() => stopSync?.());

const isCode = (code: string) => (e: unknown) => e instanceof TRPCError && e.code === code;

describe("limits operators set", () => {
  it("a plan's limits apply to its tenants without their own, the tenant's own win, and each refusal shows on the tenant's usage page by limit", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const admin = caller(await makeActor("admin"));
    const plan = await testDb().pricePlan.create({ data: { name: `limits-${uid()}` } });
    const [onPlan, own] = [await tenantWithKey(), await tenantWithKey()];
    for (const t of [onPlan, own]) await testDb().tenant.update({ where: { id: t.tenant.id }, data: { pricePlanId: plan.id } });
    const ownTenant = await testDb().tenant.findUniqueOrThrow({ where: { id: own.tenant.id } });
    await admin.tenant.update({ id: own.tenant.id, expectedUpdatedAt: ownTenant.updatedAt, rpmLimit: 1000 });
    const gw = await startTestGateway();
    const call = async (secret: string) => {
      const r = await fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${secret}` }, body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "hi" }], max_tokens: 5 }) });
      return { status: r.status, body: await r.json() };
    };
    try {
      await admin.usage.setPlanLimits({ planId: plan.id, rpmLimit: 2, tpmLimit: null });
      // The plan's NOTIFY reaches the gateway: its third call within the minute is refused.
      await expect.poll(async () => (await call(onPlan.secret)).status, { timeout: 2000, interval: 10 }).toBe(429);
      const refused = await call(onPlan.secret);
      expect(refused.body.error).toMatchObject({ code: "rate_limit_exceeded", message: expect.stringContaining("requests per minute on this tenant") });
      for (let i = 0; i < 5; i++) expect((await call(own.secret)).status).toBe(200);
      await gw.gateway.callLog.flush();

      const usage = await caller(await makeActor("tenant", onPlan.tenant.id)).usage.tenant({ days: 1 });
      expect(usage.refusals).toEqual([expect.objectContaining({ limit: "limit_rpm_tenant", label: "requests per minute, tenant", calls: expect.any(Number) })]);
      expect(usage.refusals[0]!.calls).toBeGreaterThanOrEqual(2);
      expect((await caller(await makeActor("tenant", own.tenant.id)).usage.tenant({ days: 1 })).refusals).toEqual([]);
      const audit = await testDb().auditEvent.findFirstOrThrow({ where: { action: "priceplan.limits.set", targetId: plan.id } });
      expect(audit.after).toMatchObject({ rpmLimit: 2, tpmLimit: null });
    } finally {
      await gw.close();
    }
  });

  it("a tenant sets its keys' limits within its own, never above, and never on another tenant's key", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const [t, other] = [await tenantWithKey(), await tenantWithKey()];
    await testDb().tenant.update({ where: { id: t.tenant.id }, data: { rpmLimit: 100, tpmLimit: 50_000 } });
    const user = caller(await makeActor("tenant", t.tenant.id));
    await expect(user.apiKey.create({ name: "too much", rpmLimit: 101 })).rejects.toThrow("rpmLimit: at most 100 requests per minute, the tenant's own limit");
    await expect(user.apiKey.setLimits({ id: t.key.id, rpmLimit: 10, tpmLimit: 60_000 })).rejects.toThrow("tpmLimit: at most 50,000 tokens per minute");
    await expect(user.apiKey.setLimits({ id: other.key.id, rpmLimit: 1, tpmLimit: null })).rejects.toSatisfy(isCode("NOT_FOUND"));
    expect((await testDb().apiKey.findUniqueOrThrow({ where: { id: other.key.id } })).rpmLimit).toBeNull();
    const { key, secret } = await user.apiKey.create({ name: "checkout", rpmLimit: 1 });
    expect(key).toMatchObject({ rpmLimit: 1, tpmLimit: null });

    const gw = await startTestGateway();
    try {
      const call = () => fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${secret}` }, body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "hi" }], max_tokens: 5 }) }).then((r) => r.status);
      await expect.poll(call, { timeout: 2000, interval: 10 }).toBe(429);
      await gw.gateway.callLog.flush();
      expect((await user.usage.tenant({ days: 1 })).refusals).toEqual([expect.objectContaining({ limit: "limit_rpm_key", label: "requests per minute, API key" })]);
      // Lifting the key's own limit lets it run at the tenant's.
      await user.apiKey.setLimits({ id: key.id, rpmLimit: null, tpmLimit: null });
      await expect.poll(call, { timeout: 2000, interval: 20 }).toBe(200);
    } finally {
      await gw.close();
    }
  });
});
