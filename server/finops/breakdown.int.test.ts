import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { Prisma } from "../db/generated/client.ts";
import { ownDatabase } from "../test/own-db.ts";
import type { Actor } from "../auth/actor.ts";
import { rollupHours } from "../usage/rollup.ts";
import { refreshDirtyDays } from "../usage/daily.ts";

// A database of its own: the bill covers every cost row and overhead of the month, which other
// files write into the shared one.
const D = Prisma.Decimal;
let own: Awaited<ReturnType<typeof ownDatabase>>;
let a: string;
let b: string;
const staff = (role: "admin" | "operator" | "auditor"): Actor => ({ userId: `u-${role}`, email: `${role}@test.local`, name: role, role, tenantId: null });
const tenantUser = (tenantId: string): Actor => ({ userId: `u-${tenantId}`, email: "t@test.local", name: "t", role: "tenant", tenantId });
const HOUR = new Date("2026-10-05T10:00:00Z");

beforeAll(async () => {
  own = await ownDatabase("costparts");
  const db = own.db;
  const plan = await db.pricePlan.create({ data: { name: "parts", currency: "TRY" } });
  a = (await db.tenant.create({ data: { name: "Parts A", slug: "parts-a", pricePlanId: plan.id } })).id;
  b = (await db.tenant.create({ data: { name: "Parts B", slug: "parts-b", pricePlanId: plan.id } })).id;
  await db.$executeRaw`SELECT kule_call_log_partition(${HOUR}::timestamp)`;
  // A used 3,000 of the endpoint-hour's 4,000 tokens, B 1,000.
  for (const [tenantId, tokens] of [[a, 1000], [a, 2000], [b, 1000]] as const) {
    await db.$executeRaw`INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "startedAt", "endedAt", status, "promptTokens", "completionTokens", region)
      VALUES (${randomUUID()}, ${tenantId}, 'k', 'ep-chat', 'v', ${new Date(HOUR.getTime() + 60_000)}, ${new Date(HOUR.getTime() + 61_000)}, 200, ${tokens}, 0, 'tr-ist')`;
  }
  await db.costHour.createMany({
    data: [
      { hour: HOUR, subject: "ep-chat", deviceHours: 1, cost: 100, energyKwh: "0.6", energyCost: 6, storageCost: "1.5" },
      { hour: HOUR, subject: "idle", deviceHours: "0.5", cost: "50.005", energyKwh: "0.2", energyCost: 2, storageCost: "0.333" },
    ],
  });
  await db.costOverhead.createMany({
    data: [
      { kind: "energy", amount: 4, pue: "1.5", effectiveFrom: new Date("2026-09-01") },
      { kind: "software", amount: 3000, spread: "gpu_hours", effectiveFrom: new Date("2026-09-01") },
      { kind: "operations", amount: 1000, spread: "even", effectiveFrom: new Date("2026-10-16") },
    ],
  });
  await rollupHours(db, HOUR, HOUR);
  await refreshDirtyDays(db);
}, 120_000);
afterAll(async () => own?.close());

const sum = (xs: string[]) => xs.reduce((s, x) => s.add(x), new D(0)).toFixed(2);

describe("the month's cost part by part", () => {
  it("shares every part between the tenants and the platform, adding up to its total to the kuruş", async () => {
    const bill = await own.caller(staff("admin")).usage.costBreakdown({ month: "2026-10" });
    expect(bill.parts.map((p) => [p.part, p.rule, p.total])).toEqual([
      ["gpu", "measured", "150.01"],
      ["energy", "measured", "8.00"],
      ["storage", "measured", "1.83"],
      ["software", "gpu_hours", "3000.00"],
      // From the 16th: 16 of October's 31 days.
      ["operations", "even", "516.13"],
    ]);
    for (const p of bill.parts) expect(sum([...p.tenants.map((t) => t.amount), p.platform!])).toBe(p.total);
    const share = (part: string, id: string) => bill.parts.find((p) => p.part === part)!.tenants.find((t) => t.tenantId === id)!.amount;
    expect([share("gpu", a), share("gpu", b), bill.parts[0]!.platform]).toEqual(["75.00", "25.00", "50.01"]);
    // Software by GPU-hours: A 0.75 h, B 0.25 h, and the idle half hour is the platform's.
    expect([share("software", a), share("software", b), bill.parts[3]!.platform]).toEqual(["1500.00", "500.00", "1000.00"]);
    expect(bill.energy).toEqual({ kwh: "0.8", perKwh: "4.0000", pue: "1.50" });
    expect(bill.unset).toEqual(["storage"]);
  });

  it("gives a tenant user its own shares with the rules, not the totals or another tenant's", async () => {
    const mine = await own.caller(tenantUser(a)).usage.costBreakdown({ month: "2026-10" });
    for (const p of mine.parts) {
      expect(p.total).toBeNull();
      expect(p.platform).toBeNull();
      expect(p.tenants.map((t) => t.tenantId)).toEqual([a]);
    }
    expect(mine.unset).toEqual([]);
    await expect(own.caller(tenantUser(a)).usage.costBreakdown({ month: "2026-10", tenantId: b })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const one = await own.caller(staff("operator")).usage.costBreakdown({ month: "2026-10", tenantId: b });
    expect(one.parts[0]!.tenants.map((t) => t.tenantId)).toEqual([b]);
    await expect(own.caller(staff("auditor")).usage.costBreakdown({ month: "2026-10" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("takes a new cost only from an hour not yet over, and audits it", async () => {
    const admin = own.caller(staff("admin"));
    await expect(admin.usage.setOverhead({ kind: "storage", amount: "2", effectiveFrom: new Date(Date.now() - 7_200_000) })).rejects.toThrow("effectiveFrom: a cost cannot change hours already over");
    const row = await admin.usage.setOverhead({ kind: "storage", amount: "2", effectiveFrom: new Date(Date.now() + 3_600_000) });
    expect(await own.db.auditEvent.count({ where: { action: "cost.overhead.set", targetId: "storage" } })).toBe(1);
    expect(row.kind).toBe("storage");
  });
});
