import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { Prisma } from "../db/generated/client.ts";
import { caller, makeActor, makeModelWithVersions, testDb, testDrivers, uid } from "../test/harness.ts";
import { CuttableProxy, databaseProxy, servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { rollupDirtyHours, rollupHour } from "./rollup.ts";
import { computeCostHour } from "./cost.ts";
import { refreshDirtyDays } from "./daily.ts";

const D = Prisma.Decimal;
const HOUR = 3_600_000;
let stopSync: () => void;
let proxy: CuttableProxy;

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  proxy = await databaseProxy();
});
afterAll(async () => {
  stopSync?.();
  await proxy?.close();
});

async function planWithPrices(prices: { from: Date; input: string; output: string; perRequest: string; endpointId?: string }[]) {
  const plan = await testDb().pricePlan.create({ data: { name: `plan-${uid()}` } });
  for (const p of prices) await testDb().planPrice.create({ data: { planId: plan.id, effectiveFrom: p.from, inputPer1M: p.input, outputPer1M: p.output, perRequest: p.perRequest, endpointId: p.endpointId ?? null } });
  return plan;
}

/** Call-log rows written as the gateway writes them (COPY and INSERT go through the same trigger). */
async function rawCalls(rows: { tenantId: string; apiKeyId: string; endpointId: string; versionId: string; at: Date; status?: number; prompt: number; completion: number; latencyMs?: number }[]) {
  for (const r of rows) {
    await testDb().$executeRaw`INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "startedAt", "endedAt", status, "promptTokens", "completionTokens", region)
      VALUES (${randomUUID()}, ${r.tenantId}, ${r.apiKeyId}, ${r.endpointId}, ${r.versionId}, ${r.at}, ${new Date(r.at.getTime() + (r.latencyMs ?? 120))}, ${r.status ?? 200}, ${r.prompt}, ${r.completion}, 'tr-ist')`;
  }
}

/**
 * The roll-ups recomputed independently, in JavaScript with exact decimals, from the raw rows and
 * the plan's dated prices: what every hour × key × endpoint × version must hold.
 */
async function expectedFromRaw(tenantId: string) {
  const db = testDb();
  const tenant = await db.tenant.findUniqueOrThrow({ where: { id: tenantId } });
  const prices = await db.planPrice.findMany({ where: { planId: tenant.pricePlanId! } });
  const calls = await db.callLog.findMany({ where: { tenantId } });
  const out = new Map<string, { requests: number; errors: number; prompt: number; completion: number; charged: Prisma.Decimal }>();
  for (const c of calls) {
    const price = prices
      .filter((p) => p.effectiveFrom <= c.startedAt && (p.endpointId === null || p.endpointId === c.endpointId))
      .sort((a, b) => Number(b.endpointId !== null) - Number(a.endpointId !== null) || b.effectiveFrom.getTime() - a.effectiveFrom.getTime())[0];
    let charge = new D(0);
    if (price && c.endpointId && c.status >= 200 && c.status < 300) {
      charge = c.promptTokens + c.completionTokens > 0 ? new D(c.promptTokens).mul(price.inputPer1M).div(1e6).add(new D(c.completionTokens).mul(price.outputPer1M).div(1e6)) : new D(price.perRequest);
    }
    const hour = new Date(Math.floor(c.startedAt.getTime() / HOUR) * HOUR).toISOString();
    const k = [hour, c.apiKeyId, c.endpointId, c.endpointVersionId].join("|");
    const e = out.get(k) ?? { requests: 0, errors: 0, prompt: 0, completion: 0, charged: new D(0) };
    out.set(k, { requests: e.requests + 1, errors: e.errors + (c.status >= 500 ? 1 : 0), prompt: e.prompt + c.promptTokens, completion: e.completion + c.completionTokens, charged: e.charged.add(charge) });
  }
  return out;
}

async function rolledUp(tenantId: string) {
  const rows = await testDb().usageHour.findMany({ where: { tenantId } });
  return new Map(rows.map((r) => [[r.hour.toISOString(), r.apiKeyId, r.endpointId, r.endpointVersionId].join("|"), { requests: r.requests, errors: r.errors, prompt: Number(r.promptTokens), completion: Number(r.completionTokens), charged: new D(r.charged) }]));
}

function expectSame(a: Awaited<ReturnType<typeof expectedFromRaw>>, b: Awaited<ReturnType<typeof rolledUp>>) {
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  for (const [k, v] of a) {
    const r = b.get(k)!;
    expect({ ...r, charged: r.charged.toFixed(12) }, k).toEqual({ ...v, charged: v.charged.toFixed(12) });
  }
}

describe("hourly roll-ups", () => {
  it("equal the raw call log to the token and the kuruş, across hours, a price change and a database outage", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey();
    // Prices with 6 decimals, changed mid-way through the earlier traffic, plus one for this endpoint only.
    const base = new Date(Date.UTC(2027, 2, 10, 9, 0, 0)); // March 2027: hours no seal has touched
    const plan = await planWithPrices([
      { from: new Date(Date.UTC(2026, 0, 1)), input: "12.345678", output: "36.000001", perRequest: "0.015" },
      { from: new Date(base.getTime() + 90 * 60_000), input: "13.5", output: "40.123457", perRequest: "0.02" },
    ]);
    await testDb().tenant.update({ where: { id: t.tenant.id }, data: { pricePlanId: plan.id } });
    const v = ep.versions[0]!.id;
    // Traffic over three hours (09:xx, 10:xx with the price change at 10:30, 11:xx), with errors among it.
    const rows = Array.from({ length: 90 }, (_, i) => ({ tenantId: t.tenant.id, apiKeyId: t.key.id, endpointId: ep.endpoint.id, versionId: v, at: new Date(base.getTime() + i * 2 * 60_000 + 7_000), status: i % 17 === 0 ? 503 : 200, prompt: 100 + i, completion: 7 * i }));
    await rawCalls(rows);

    // And live traffic through a gateway whose database goes away for a while.
    const gw = await startTestGateway({ viaProxy: proxy });
    await gw.gateway.config.reload();
    const call = () => fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${t.secret}` }, body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "Merhaba" }], max_tokens: 5 }) });
    for (let i = 0; i < 20; i++) expect((await call()).status).toBe(200);
    proxy.sever();
    for (let i = 0; i < 20; i++) expect((await call()).status).toBe(200);
    expect(gw.gateway.callLog.spooledRows).toBeGreaterThan(0);
    proxy.restore();
    await gw.gateway.callLog.flush();
    await expect.poll(() => gw.gateway.callLog.spooledRows, { timeout: 10_000 }).toBe(0);
    await gw.close();

    await rollupDirtyHours(testDb());
    const expected = await expectedFromRaw(t.tenant.id);
    expect([...expected.values()].reduce((s, x) => s + x.requests, 0)).toBe(130);
    expectSame(expected, await rolledUp(t.tenant.id));
    // The daily roll-ups the long views read hold the same totals, to the last digit.
    await refreshDirtyDays(testDb());
    const sum = async (table: "UsageHour" | "UsageDay") =>
      (await testDb().$queryRawUnsafe<{ r: bigint; p: bigint; c: bigint; ch: Prisma.Decimal }[]>(`SELECT sum(requests)::bigint r, sum("promptTokens")::bigint p, sum("completionTokens")::bigint c, sum(charged) ch FROM "${table}" WHERE "tenantId" = $1`, t.tenant.id))[0]!;
    const [h, d] = [await sum("UsageHour"), await sum("UsageDay")];
    expect({ ...d, ch: new D(d.ch).toFixed(12) }).toEqual({ ...h, ch: new D(h.ch).toFixed(12) });

    // Idempotent: recomputing an hour changes nothing.
    await rollupHour(testDb(), new Date(base.getTime() + HOUR));
    expectSame(expected, await rolledUp(t.tenant.id));
  }, 60_000);

  it("charges nothing for a call that routed nowhere, such as a model listing", async () => {
    const t = await tenantWithKey();
    const plan = await planWithPrices([{ from: new Date(Date.UTC(2026, 0, 1)), input: "10", output: "30", perRequest: "0.5" }]);
    await testDb().tenant.update({ where: { id: t.tenant.id }, data: { pricePlanId: plan.id } });
    const at = new Date(Date.UTC(2027, 3, 2, 9, 15));
    await testDb().$executeRaw`INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", "startedAt", "endedAt", status, region) VALUES (${randomUUID()}, ${t.tenant.id}, ${t.key.id}, ${at}, ${at}, 200, NULL)`;
    await rollupDirtyHours(testDb());
    const [row] = await testDb().usageHour.findMany({ where: { tenantId: t.tenant.id } });
    expect(row).toMatchObject({ requests: 1, endpointId: "" });
    expect(new D(row!.charged).toFixed(2)).toBe("0.00");
  });

  it("charges calls before and after a mid-month price change at their own prices", async () => {
    const model = await makeModelWithVersions(["1.0"]);
    const pool = await testDb().nodePool.findFirstOrThrow({ where: { name: "cpu", cluster: { name: "test-sim" } } });
    const endpoint = await testDb().endpoint.create({ data: { name: `E ${uid()}`, slug: `e-${uid()}`, modelId: model.id, engine: "vllm", nodePoolId: pool.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 2000, versions: { create: { modelVersionId: model.versions[0]!.id, weight: 100 } } }, include: { versions: true } });
    const t = await tenantWithKey();
    const plan = await planWithPrices([
      { from: new Date(Date.UTC(2027, 3, 1)), input: "10", output: "30", perRequest: "0" },
      { from: new Date(Date.UTC(2027, 3, 15)), input: "20", output: "60", perRequest: "0" },
    ]);
    await testDb().tenant.update({ where: { id: t.tenant.id }, data: { pricePlanId: plan.id } });
    const common = { tenantId: t.tenant.id, apiKeyId: t.key.id, endpointId: endpoint.id, versionId: endpoint.versions[0]!.id };
    await rawCalls([
      { ...common, at: new Date(Date.UTC(2027, 3, 10, 12)), prompt: 1_000_000, completion: 1_000_000 }, // 10 + 30
      { ...common, at: new Date(Date.UTC(2027, 3, 20, 12)), prompt: 1_000_000, completion: 1_000_000 }, // 20 + 60
    ]);
    await rollupDirtyHours(testDb());
    const tenantUser = await makeActor("tenant", t.tenant.id);
    const invoice = await caller(tenantUser).usage.invoice({ month: "2027-04" });
    expect(invoice.total).toBe("120.00");
    expect(invoice.csv.startsWith("\uFEFF")).toBe(true);
    expect(invoice.csv).toContain(`,2000000,2000000,120.00\r\n`);
    expect(invoice.csv).toMatch(/^\uFEFFTenant,Month,Endpoint,Model,Requests,Input tokens,Output tokens,Amount \(TRY\)\r\n/);
    // In Turkish the heads are Turkish; the amounts stay as data (a point, two decimals).
    const fatura = await caller(tenantUser).usage.invoice({ month: "2027-04", locale: "tr" });
    expect(fatura.csv).toMatch(/^\uFEFFKiracı,Ay,Uç nokta,Model,İstek sayısı,Girdi tokenları,Çıktı tokenları,Tutar \(TRY\)\r\n/);
    expect(fatura.csv).toContain(`,Toplam,,,,,120.00\r\n`);
    // A price cannot be set in the past: what was charged stays as it was.
    const admin = await makeActor("admin");
    await expect(caller(admin).usage.addPlanPrice({ planId: plan.id, effectiveFrom: new Date(Date.UTC(2027, 3, 12)), inputPer1M: "1", outputPer1M: "1", perRequest: "0" })).resolves.toMatchObject({ planId: plan.id });
    const past = caller(admin).usage.addPlanPrice({ planId: plan.id, effectiveFrom: new Date(Date.now() - 3_600_000), inputPer1M: "1", outputPer1M: "1", perRequest: "0" });
    await expect(past).rejects.toThrow("effectiveFrom: a price cannot take effect in the past");
    // Hardware rates: only for hardware the cluster has, from an hour not yet over.
    const thisHour = new Date(Math.floor(Date.now() / HOUR) * HOUR);
    await expect(caller(admin).usage.setHardwareRate({ kind: "gpu", key: "NVIDIA B200", perHour: "150", effectiveFrom: thisHour })).rejects.toThrow("key: no GPU of this model is in the cluster");
    await expect(caller(admin).usage.setHardwareRate({ kind: "cpu", key: "cpu-1", perHour: "12", effectiveFrom: new Date(thisHour.getTime() - HOUR) })).rejects.toThrow("effectiveFrom: a rate cannot change hours already over");
    await expect(caller(admin).usage.setHardwareRate({ kind: "cpu", key: "cpu-1", perHour: "12.5", effectiveFrom: thisHour })).resolves.toMatchObject({ kind: "cpu", key: "cpu-1" });
  });
});

describe("cost by request class", () => {
  it("splits a tenant's charges by the class the gateway gave each call, calls of no class apart", async () => {
    const model = await makeModelWithVersions(["1.0"]);
    const pool = await testDb().nodePool.findFirstOrThrow({ where: { name: "cpu", cluster: { name: "test-sim" } } });
    const endpoint = await testDb().endpoint.create({ data: { name: `E ${uid()}`, slug: `e-${uid()}`, modelId: model.id, engine: "vllm", nodePoolId: pool.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 2000, versions: { create: { modelVersionId: model.versions[0]!.id, weight: 100 } } }, include: { versions: true } });
    const t = await tenantWithKey();
    const plan = await planWithPrices([{ from: new Date(Date.UTC(2026, 0, 1)), input: "10", output: "30", perRequest: "0" }]);
    await testDb().tenant.update({ where: { id: t.tenant.id }, data: { pricePlanId: plan.id } });
    const at = new Date(Date.now() - 60_000);
    for (const [cls, prompt] of [["long", 1_000_000], ["long", 1_000_000], [null, 100_000]] as const) {
      await testDb().$executeRaw`INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "startedAt", "endedAt", status, "promptTokens", "completionTokens", region, "requestClass")
        VALUES (${randomUUID()}, ${t.tenant.id}, ${t.key.id}, ${endpoint.id}, ${endpoint.versions[0]!.id}, ${at}, ${at}, 200, ${prompt}, 0, 'tr-ist', ${cls})`;
    }
    await rollupDirtyHours(testDb());
    const usage = await caller(await makeActor("tenant", t.tenant.id)).usage.tenant({ days: 1, by: "class" });
    expect(usage.costBySplit).toEqual([
      { label: "long", requests: 2, charged: "20.00" },
      { label: "no class", requests: 1, charged: "1.00" },
    ]);
  });
});

describe("what it costs to run", () => {
  it("charges a tensor-parallel group every GPU it holds: a TP 4 replica's hour is four GPU-hours", async () => {
    const db = testDb();
    const s = uid();
    const gpuModel = `TEST-GPU-${s}`;
    const cluster = await db.cluster.create({ data: { name: `tp-${s}` } });
    const pool = await db.nodePool.create({ data: { clusterId: cluster.id, name: `tp-${s}`, region: "tr-ist" } });
    const node = await db.node.create({ data: { nodePoolId: pool.id, hostname: `tp-${s}`, region: "tr-ist", cpuModel: "x", cpuCores: 8, memoryBytes: 1n } });
    const gpus = await Promise.all([0, 1, 2, 3, 4].map((index) => db.gpu.create({ data: { nodeId: node.id, index, uuid: `GPU-tp-${s}-${index}`, modelName: gpuModel, memoryBytes: 80n * 2n ** 30n } })));
    await db.hardwareRate.create({ data: { kind: "gpu", key: gpuModel, perHour: "70", effectiveFrom: new Date(Date.UTC(2026, 0, 1)) } });
    const model = await makeModelWithVersions(["1.0"]);
    const endpoint = await db.endpoint.create({ data: { name: `TP ${uid()}`, slug: `tp-${uid()}`, modelId: model.id, engine: "vllm", nodePoolId: pool.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 2000, versions: { create: { modelVersionId: model.versions[0]!.id, weight: 100 } } }, include: { versions: true } });
    const hour = new Date(Date.UTC(2027, 4, 4, 9));
    await db.replica.create({
      data: { endpointVersionId: endpoint.versions[0]!.id, driver: "sim", region: "tr-ist", nodeId: node.id, gpuId: gpus[0]!.id, tensorParallel: 4, state: "stopped", createdAt: new Date(hour.getTime() - HOUR), stoppedAt: new Date(hour.getTime() + HOUR), gpus: { create: gpus.slice(0, 4).map((g, rank) => ({ gpuId: g.id, rank })) } },
    });
    await computeCostHour(db, hour);
    const cost = await db.costHour.findFirstOrThrow({ where: { hour, subject: endpoint.id } });
    expect(cost.deviceHours.toFixed(3)).toBe("4.000");
    expect(cost.cost.toFixed(2)).toBe("280.00");
    // The fifth GPU held nothing: its hour is idle, not the group's.
    const idle = await db.costHour.findFirstOrThrow({ where: { hour, subject: "idle" } });
    expect(Number(idle.deviceHours)).toBeGreaterThanOrEqual(1);

    // A server the user runs, registered as two GPUs of that model, for half the hour: one GPU-hour, and no idle of its own.
    const operator = await makeActor("operator");
    const ext = await db.endpoint.create({ data: { name: `Ext ${uid()}`, slug: `ext-${uid()}`, modelId: model.id, engine: "vllm", nodePoolId: pool.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 2000, versions: { create: { modelVersionId: model.versions[0]!.id, weight: 100 } } }, include: { versions: true } });
    const registered = await caller(operator).cluster.registerExternal({ endpointVersionId: ext.versions[0]!.id, url: `http://127.0.0.1:${20000 + Math.floor(Math.random() * 1000)}`, region: "tr-ist", gpuCount: 2, gpuModel });
    expect(registered).toMatchObject({ tensorParallel: 2, gpuModel });
    await db.replica.update({ where: { id: registered.id }, data: { createdAt: new Date(hour.getTime() + HOUR / 2), stoppedAt: new Date(hour.getTime() + 2 * HOUR), state: "stopped" } });
    const idleBefore = Number(idle.deviceHours);
    await computeCostHour(db, hour);
    const extCost = await db.costHour.findFirstOrThrow({ where: { hour, subject: ext.id } });
    expect(extCost.deviceHours.toFixed(3)).toBe("1.000");
    expect(extCost.cost.toFixed(2)).toBe("70.00");
    expect(Number((await db.costHour.findFirstOrThrow({ where: { hour, subject: "idle" } })).deviceHours)).toBeCloseTo(idleBefore, 6);
  });


  it("splits an endpoint's GPU cost 75/25 between tenants using it 3:1 by tokens; a MIG 3g instance costs 3/7 of its GPU", async () => {
    const db = testDb();
    const s = uid();
    const gpuModel = `TEST-GPU-${s}`;
    const cluster = await db.cluster.create({ data: { name: `cost-${s}` } });
    const pool = await db.nodePool.create({ data: { clusterId: cluster.id, name: `cost-${s}`, region: "tr-ist" } });
    const node = await db.node.create({ data: { nodePoolId: pool.id, hostname: `cost-${s}`, region: "tr-ist", cpuModel: "x", cpuCores: 8, memoryBytes: 1n } });
    const whole = await db.gpu.create({ data: { nodeId: node.id, index: 0, uuid: `GPU-cost-${s}-0`, modelName: gpuModel, memoryBytes: 80n * 2n ** 30n } });
    const migGpu = await db.gpu.create({ data: { nodeId: node.id, index: 1, uuid: `GPU-cost-${s}-1`, modelName: gpuModel, memoryBytes: 80n * 2n ** 30n, migEnabled: true, migInstances: { create: { profile: "3g.40gb", startSlot: 0 } } } });
    await db.hardwareRate.create({ data: { kind: "gpu", key: gpuModel, perHour: "70", effectiveFrom: new Date(Date.UTC(2026, 0, 1)) } });
    const model = await makeModelWithVersions(["1.0"]);
    const mk = async () => db.endpoint.create({ data: { name: `C ${uid()}`, slug: `c-${uid()}`, modelId: model.id, engine: "vllm", nodePoolId: pool.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 2000, versions: { create: { modelVersionId: model.versions[0]!.id, weight: 100 } } }, include: { versions: true } });
    const [shared, mig] = [await mk(), await mk()];
    const hour = new Date(Date.UTC(2027, 4, 3, 14));
    const held = { createdAt: new Date(hour.getTime() - HOUR), stoppedAt: new Date(hour.getTime() + 2 * HOUR), state: "stopped" as const, driver: "sim" as const, region: "tr-ist", nodeId: node.id };
    await db.replica.create({ data: { ...held, endpointVersionId: shared.versions[0]!.id, gpuId: whole.id } });
    await db.replica.create({ data: { ...held, endpointVersionId: mig.versions[0]!.id, gpuId: migGpu.id, migStartSlot: 0 } });
    await computeCostHour(db, hour);
    const costs = await db.costHour.findMany({ where: { hour, subject: { in: [shared.id, mig.id] } } });
    expect(costs.find((c) => c.subject === shared.id)!.cost.toFixed(6)).toBe("70.000000");
    expect(costs.find((c) => c.subject === mig.id)!.cost.toFixed(6)).toBe(new D(70).mul(3).div(7).toFixed(6)); // 30 TRY

    const [a, b] = [await tenantWithKey(), await tenantWithKey()];
    const at = new Date(hour.getTime() + 10 * 60_000);
    const base = { endpointId: shared.id, versionId: shared.versions[0]!.id, at };
    await rawCalls([
      { ...base, tenantId: a.tenant.id, apiKeyId: a.key.id, prompt: 2000, completion: 1000 },
      { ...base, tenantId: a.tenant.id, apiKeyId: a.key.id, prompt: 3000, completion: 3000 },
      { ...base, tenantId: b.tenant.id, apiKeyId: b.key.id, prompt: 1000, completion: 2000 },
    ]);
    await rollupDirtyHours(db);
    await refreshDirtyDays(db);
    const operator = await makeActor("operator");
    const ranking = await caller(operator).usage.ranking({ days: 90 });
    expect(ranking.find((r) => r.tenantId === a.tenant.id)).toMatchObject({ tokens: 9000, infraCost: "52.50" });
    expect(ranking.find((r) => r.tenantId === b.tenant.id)).toMatchObject({ tokens: 3000, infraCost: "17.50" });
    // The MIG endpoint's replica was up with no calls: its cost is nobody's bill, it is idle capacity.
    const economics = await caller(operator).usage.economics({ days: 90 });
    expect(economics.endpoints.find((e) => e.endpointId === shared.id)).toMatchObject({ infraCost: "70.00", tokens: 12000, costPer1MTokens: "5833.33" });
    expect(economics.endpoints.find((e) => e.endpointId === mig.id)).toMatchObject({ infraCost: "30.00", requests: 0 });
    expect(Number(economics.idle.unusedEndpointCost)).toBeGreaterThanOrEqual(30);
  });
});

describe("who sees what", () => {
  it("a tenant user sees only its own usage and invoices; staff see any tenant's; only staff see the ranking", async () => {
    const [a, b] = [await tenantWithKey(), await tenantWithKey()];
    const tenantA = caller(await makeActor("tenant", a.tenant.id));
    expect((await tenantA.usage.tenant({ days: 7 })).tenant.id).toBe(a.tenant.id);
    for (const p of [tenantA.usage.tenant({ tenantId: b.tenant.id, days: 7 }), tenantA.usage.invoice({ tenantId: b.tenant.id, month: "2026-12" }), tenantA.usage.setBudget({ tenantId: b.tenant.id, monthlyBudget: "1", hardCap: true })]) {
      await expect(p).rejects.toSatisfy((e: unknown) => e instanceof TRPCError && e.code === "NOT_FOUND");
    }
    expect((await testDb().tenant.findUniqueOrThrow({ where: { id: b.tenant.id } })).monthlyBudget).toBeNull();
    await expect(tenantA.usage.ranking({ days: 30 })).rejects.toSatisfy((e: unknown) => e instanceof TRPCError && e.code === "FORBIDDEN");
    const operator = caller(await makeActor("operator"));
    expect((await operator.usage.tenant({ tenantId: b.tenant.id, days: 7 })).tenant.id).toBe(b.tenant.id);
    await expect(operator.usage.tenant({ days: 7 })).rejects.toThrow("tenantId: choose a tenant");
  });
});
