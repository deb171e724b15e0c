import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor, testDb, testDrivers } from "../test/harness.ts";
import { scaledToZero, servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { startAutoscaler } from "../autoscale/loop.ts";

let gw: Awaited<ReturnType<typeof startTestGateway>>;
let stopSync: () => void;
let autoscaler: ReturnType<typeof startAutoscaler>;

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  autoscaler = startAutoscaler({ db: testDb(), drivers: testDrivers(), signal: async () => null }, 250);
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
  await autoscaler?.stop();
  stopSync?.();
});

const chat = (base: string, secret: string, slug: string) =>
  fetch(`${base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: JSON.stringify({ model: slug, messages: [{ role: "user", content: "hello" }], max_tokens: 4 }) });

describe("scale from zero at the gateway", () => {
  it("holds calls that arrive while a version scaled to zero starts a replica, and serves every one", async () => {
    const ep = await scaledToZero();
    const { secret } = await tenantWithKey();
    await gw.gateway.config.reload();
    const answers = await Promise.all(Array.from({ length: 20 }, () => chat(gw.base, secret, ep.endpoint.slug)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await ep.started()).toHaveLength(1);
    await ep.done();
  });

  it("past the endpoint's queue length or timeout, answers 503 with Retry-After", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const operator = await makeActor("operator");
    await caller(operator).cluster.stopReplica({ replicaId: ep.replicas[0]!.id });
    // A replica that stays loading for a while: nothing will answer within the timeout.
    await testDb().replica.create({ data: { endpointVersionId: ep.versions[0]!.id, driver: "sim", region: "tr-ank", state: "loading", expectedReadyAt: new Date(Date.now() + 30_000) } });
    await caller(operator).autoscale.setColdStart({ endpointId: ep.endpoint.id, coldStartQueueLimit: 1, coldStartTimeoutSeconds: 1 });
    const { secret } = await tenantWithKey();
    await gw.gateway.config.reload();
    const t = Date.now();
    const held = chat(gw.base, secret, ep.endpoint.slug);
    await new Promise((r) => setTimeout(r, 200));
    const refused = await chat(gw.base, secret, ep.endpoint.slug);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/already holds 1 call/);
    const timedOut = await held;
    expect(timedOut.status).toBe(503);
    expect(Date.now() - t).toBeGreaterThanOrEqual(1000);
    expect(((await timedOut.json()) as { error: { message: string } }).error.message).toMatch(/became ready within 1 s/);
    expect(Number(timedOut.headers.get("retry-after"))).toBeGreaterThan(20);
  });
});
