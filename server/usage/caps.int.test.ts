import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { caller, makeActor, testDb, testDrivers, uid } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { rollupDirtyHours } from "./rollup.ts";

let stopSync: () => void;
beforeAll(() => {
  stopSync = startClusterSync(testDb(), testDrivers());
});
afterAll(() => stopSync?.());


/** A tenant on a plan charging 1 TRY per token, an endpoint it can call, and a gateway. */
async function setup() {
  const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
  const t = await tenantWithKey();
  const plan = await testDb().pricePlan.create({ data: { name: `caps-${uid()}`, prices: { create: { effectiveFrom: new Date(Date.UTC(2026, 0, 1)), inputPer1M: "1000000", outputPer1M: "1000000", perRequest: "0" } } } });
  await testDb().tenant.update({ where: { id: t.tenant.id }, data: { pricePlanId: plan.id } });
  const gw = await startTestGateway();
  const call = () => fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${t.secret}` }, body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "Merhaba dünya" }], max_tokens: 20 }) });
  return { t, gw, call, tenantUser: caller(await makeActor("tenant", t.tenant.id)), admin: caller(await makeActor("admin")) };
}

/** Milliseconds until the gateway answers `status`, polling every 20 ms (fails after 5 s). */
async function msUntil(call: () => Promise<Response>, status: number) {
  const t0 = Date.now();
  for (;;) {
    const r = await call();
    await r.arrayBuffer();
    if (r.status === status) return Date.now() - t0;
    if (Date.now() - t0 > 5000) throw new Error(`still ${r.status} after 5 s`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

const fresh = async (id: string) => testDb().tenant.findUniqueOrThrow({ where: { id } });

describe("budgets and credit limits", () => {
  it("a hard cap blocks every gateway within 1 s of the rows that cross it landing, with no roll-up, and lifts within 1 s of being raised", async () => {
    const { t, gw, call, tenantUser } = await setup();
    try {
      await tenantUser.usage.setBudget({ monthlyBudget: "50", hardCap: true });
      for (let i = 0; i < 5; i++) expect((await call()).status).toBe(200);
      await gw.gateway.callLog.flush(); // the rows land: the database blocks the tenant in the same transaction
      expect((await fresh(t.tenant.id)).budgetBlockedAt).not.toBeNull();
      expect(await msUntil(call, 429)).toBeLessThan(1000);
      const refused = await call();
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await refused.json()).error).toMatchObject({ code: "budget_exceeded", message: expect.stringContaining("monthly budget of 50.00 TRY") });
      const status = await tenantUser.usage.tenant({ days: 1 });
      expect(status.budget).toMatchObject({ level: "exceeded", hardCap: true, blocked: true, budget: "50.00" });
      const audit = await testDb().auditEvent.findFirst({ where: { action: "tenant.budget.blocked", targetId: t.tenant.id } });
      expect(audit?.after).toMatchObject({ budget: "50.00" });

      await tenantUser.usage.setBudget({ monthlyBudget: "100000", hardCap: true });
      expect(await msUntil(call, 200)).toBeLessThan(1000);
    } finally {
      await gw.close();
    }
  });

  it("the credit limit is the platform's: only admins set it, a tenant's own budget cannot lift it, and it blocks with its own code", async () => {
    const { t, gw, call, tenantUser, admin } = await setup();
    try {
      const tenant = await fresh(t.tenant.id);
      await expect(tenantUser.tenant.update({ id: t.tenant.id, expectedUpdatedAt: tenant.updatedAt, creditLimit: "1000000" })).rejects.toSatisfy((e: unknown) => e instanceof TRPCError && e.code === "FORBIDDEN");
      for (let i = 0; i < 3; i++) expect((await call()).status).toBe(200);
      await gw.gateway.callLog.flush();
      // Set below what is already spent: blocked at once, not at the next flush.
      await admin.tenant.update({ id: t.tenant.id, expectedUpdatedAt: tenant.updatedAt, creditLimit: "10" });
      expect(await msUntil(call, 429)).toBeLessThan(1000);
      const refused = await call();
      expect((await refused.json()).error).toMatchObject({ code: "credit_limit_reached", message: expect.stringContaining("credit limit of 10.00 TRY") });
      // The tenant has no hard cap of its own; raising its budget changes nothing.
      await tenantUser.usage.setBudget({ monthlyBudget: "999999", hardCap: false });
      expect((await call()).status).toBe(429);
      expect((await tenantUser.usage.tenant({ days: 1 })).budget).toMatchObject({ creditLimit: "10.00", creditBlocked: true });

      await admin.tenant.update({ id: t.tenant.id, expectedUpdatedAt: (await fresh(t.tenant.id)).updatedAt, creditLimit: "1000000" });
      expect(await msUntil(call, 200)).toBeLessThan(1000);
    } finally {
      await gw.close();
    }
  });

  it("the budget card forecasts the month's end at the last week's rate and says when the budget runs out", async () => {
    const { gw, call, tenantUser } = await setup();
    try {
      for (let i = 0; i < 3; i++) expect((await call()).status).toBe(200);
      await gw.gateway.callLog.flush();
      await rollupDirtyHours(testDb());
      const { spent } = (await tenantUser.usage.tenant({ days: 1 })).budget;
      // A budget a little above the spend: at this rate it runs out before the month does.
      await tenantUser.usage.setBudget({ monthlyBudget: (Number(spent) + 0.5).toFixed(2), hardCap: false });
      const b = (await tenantUser.usage.tenant({ days: 1 })).budget;
      const now = new Date();
      expect(Number(b.forecast)).toBeGreaterThan(Number(spent));
      expect(b.budgetReachedAt!.getTime()).toBeGreaterThan(now.getTime());
      expect(b.budgetReachedAt!.getTime()).toBeLessThan(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      await tenantUser.usage.setBudget({ monthlyBudget: String(Math.ceil(Number(b.forecast)) + 100), hardCap: false });
      expect((await tenantUser.usage.tenant({ days: 1 })).budget.budgetReachedAt).toBeNull();
    } finally {
      await gw.close();
    }
  });

  it("an admin's edit made on a stale copy of the tenant is refused, naming the conflict, and changes nothing", async () => {
    const t = await tenantWithKey();
    const admin = caller(await makeActor("admin"));
    const loaded = await fresh(t.tenant.id);
    await admin.tenant.update({ id: t.tenant.id, expectedUpdatedAt: loaded.updatedAt, rpmLimit: 600 });
    await expect(admin.tenant.update({ id: t.tenant.id, expectedUpdatedAt: loaded.updatedAt, rpmLimit: 5 })).rejects.toSatisfy((e: unknown) => e instanceof TRPCError && e.code === "CONFLICT" && /Someone else changed/.test(e.message));
    expect((await fresh(t.tenant.id)).rpmLimit).toBe(600);
  });
});
