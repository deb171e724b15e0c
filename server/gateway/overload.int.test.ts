import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, httpMutation, makeActor, testDb, testDrivers, uid } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";

let gw: Awaited<ReturnType<typeof startTestGateway>>;
let stopSync: () => void;

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  gw = await startTestGateway({ engineLoadEveryMs: 100 });
});
afterAll(async () => {
  await gw?.close();
  stopSync?.();
});

const system = "You are Kule's support assistant. Answer briefly, in the caller's language. ".repeat(12);
type Call = { status: number; retryAfter: string | null; ms: number };
async function call(secret: string, slug: string, opts: { priority?: string; maxTokens?: number; user?: string; timeoutS?: number } = {}): Promise<Call> {
  const t0 = Date.now();
  const r = await fetch(`${gw.base}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, ...(opts.priority ? { "x-kule-priority": opts.priority } : {}), ...(opts.timeoutS ? { "x-stainless-timeout": String(opts.timeoutS) } : {}) },
    body: JSON.stringify({ model: slug, messages: [{ role: "system", content: system }, { role: "user", content: opts.user ?? "hello" }], max_tokens: opts.maxTokens ?? 30 }),
  });
  await r.text();
  return { status: r.status, retryAfter: r.headers.get("retry-after"), ms: Date.now() - t0 };
}
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.99) - 1]!;
const metric = async (name: string) => (await (await fetch(`${gw.gateway.adminUrl}/metrics`)).text()).split("\n").filter((l) => l.startsWith(name));

describe("overload at the gateway", () => {
  it("learns a saturated replica's limit from its engine, serves interactive calls ahead of a batch flood, and sheds past deadlines with Retry-After", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const op = caller(await makeActor("operator"));
    // A slow engine: each call holds its batch slot for about a second.
    await op.cluster.injectFault({ type: "slow-replica", replicaId: ep.replicas[0]!.id, factor: 4 });
    await testDb().endpoint.update({ where: { id: ep.endpoint.id }, data: { sloTtftMs: 3000 } });
    const batch = await tenantWithKey();
    const quiet = await tenantWithKey();
    // The quiet tenant's plan is interactive; the batch tenant (standard plan) puts its key in the batch class itself.
    const admin = caller(await makeActor("admin"));
    const gold = await testDb().pricePlan.create({ data: { name: `gold-${uid()}` } });
    await admin.usage.setPlanLimits({ planId: gold.id, rpmLimit: null, tpmLimit: null, priority: "interactive", fairShareWeight: 2 });
    const zero = await httpMutation(await makeActor("admin"), "usage.setPlanLimits", { planId: gold.id, rpmLimit: null, tpmLimit: null, fairShareWeight: 0 });
    expect(zero.status).toBe(400);
    expect(zero.error!.data.fieldErrors).toEqual({ fairShareWeight: ["at least 1"] });
    await testDb().tenant.update({ where: { id: quiet.tenant.id }, data: { pricePlanId: gold.id } });
    const batchUser = caller(await makeActor("tenant", batch.tenant.id));
    await expect(batchUser.apiKey.setLimits({ id: batch.key.id, rpmLimit: null, tpmLimit: null, priority: "interactive" })).rejects.toThrow("priority: at most standard, the class of the tenant's price plan");
    await batchUser.apiKey.setLimits({ id: batch.key.id, rpmLimit: null, tpmLimit: null, priority: "batch" });
    expect((await testDb().auditEvent.findFirstOrThrow({ where: { action: "apikey.limits.set", targetId: batch.key.id }, orderBy: { id: "desc" } })).after).toMatchObject({ priority: "batch" });
    await gw.gateway.config.reload();

    // The flood: far more batch calls than the engine runs at once.
    const flood = Array.from({ length: 200 }, () => call(batch.secret, ep.endpoint.slug, { maxTokens: 40 }));
    // Once the gateway has learned the limit (the engine queued), interactive calls arrive.
    const deadline = Date.now() + 15_000;
    while (!(await metric("kule_gateway_replica_concurrency_limit")).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const limit = Number((await metric("kule_gateway_replica_concurrency_limit"))[0]?.split(" ").at(-1));
    expect(limit).toBeGreaterThan(0);
    // The gateway holds the rest of the flood (on a busy machine the first reading may come before it does).
    await expect.poll(async () => (await metric("kule_gateway_queue_depth")).some((l) => l.includes('priority="batch"')), { timeout: 5000, interval: 50 }).toBe(true);
    // One more of the flood's, whose client gives up after 0.3 s: behind its own tenant's queue it cannot make it,
    // and that tenant asks for far more than its share (429, not 503).
    const asking = Promise.all(Array.from({ length: 10 }, (_, i) => call(quiet.secret, ep.endpoint.slug, { maxTokens: 5, user: `q${i}` })));
    const hurried = await call(batch.secret, ep.endpoint.slug, { timeoutS: 0.3, user: "hurried" });
    const interactive = await asking;
    const batchResults = await Promise.all(flood);

    expect(hurried).toMatchObject({ status: 429, retryAfter: expect.stringMatching(/^\d+$/) });
    expect(hurried.ms).toBeLessThan(1000);

    expect(interactive.map((c) => c.status)).toEqual(Array(10).fill(200));
    // Served ahead of the queued flood: within the interactive budget, while batch calls waited seconds.
    expect(p99(interactive.map((c) => c.ms))).toBeLessThan(3000);
    const served = batchResults.filter((c) => c.status === 200);
    expect(Math.max(...served.map((c) => c.ms))).toBeGreaterThan(p99(interactive.map((c) => c.ms)));
    // Nothing hung or failed otherwise: each batch call was served or refused with a reason and Retry-After.
    for (const c of batchResults.filter((c) => c.status !== 200)) {
      expect([429, 503]).toContain(c.status);
      expect(Number(c.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    await gw.gateway.callLog.flush();
    const rows = await testDb().callLog.findMany({ where: { tenantId: batch.tenant.id, status: { not: 200 } }, select: { errorClass: true } });
    expect(rows.every((r) => r.errorClass?.startsWith("shed_"))).toBe(true);
    expect(rows).toContainEqual({ errorClass: "shed_over_share" });
    // The tenant sees its refusals on its usage page, by reason.
    const usage = await caller(await makeActor("tenant", batch.tenant.id)).usage.tenant({ days: 1 });
    expect(usage.refusals).toContainEqual(expect.objectContaining({ limit: "shed_over_share", calls: expect.any(Number) }));
    expect((await metric("kule_gateway_shed_total")).some((l) => l.includes('reason="over_share"') && l.includes(`tenant="${batch.tenant.slug}"`))).toBe(true);
  }, 90_000);

  it("keeps two salted tenants' cached prefixes apart, where two unsalted ones share theirs, through the simulator's prefix cache", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const url = (await testDb().replica.findUniqueOrThrow({ where: { id: ep.replicas[0]!.id } })).url!;
    const hits = async () => Number(/^vllm:prefix_cache_hits_total(?:\{[^}]*\})? (\S+)$/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1]);
    const salted = [await tenantWithKey(), await tenantWithKey()];
    const admin = caller(await makeActor("admin"));
    for (const t of salted) await admin.tenant.update({ id: t.tenant.id, expectedUpdatedAt: (await testDb().tenant.findUniqueOrThrow({ where: { id: t.tenant.id } })).updatedAt, privatePrefixCache: true });
    const open = [await tenantWithKey(), await tenantWithKey()];
    await gw.gateway.config.reload();
    const crossHits = async ([a, b]: typeof salted) => {
      expect((await call(a!.secret, ep.endpoint.slug, { maxTokens: 2, user: "same question" })).status).toBe(200);
      const before = await hits();
      expect((await call(b!.secret, ep.endpoint.slug, { maxTokens: 2, user: "same question" })).status).toBe(200);
      return (await hits()) - before;
    };
    expect(await crossHits(salted)).toBe(0);
    expect(await crossHits(open)).toBeGreaterThanOrEqual(16 * 10);
    // A salted tenant still hits its own cache.
    const before = await hits();
    expect((await call(salted[0]!.secret, ep.endpoint.slug, { maxTokens: 2, user: "same question" })).status).toBe(200);
    expect((await hits()) - before).toBeGreaterThanOrEqual(16 * 10);
    // The endpoint's own setting salts every tenant's calls: the two open tenants no longer share.
    const { revision } = await testDb().endpoint.findUniqueOrThrow({ where: { id: ep.endpoint.id } });
    await caller(await makeActor("operator")).endpoint.update({ id: ep.endpoint.id, expectedRevision: revision, privatePrefixCache: true });
    await gw.gateway.config.reload();
    expect(await crossHits(open)).toBe(0);
  });
});
