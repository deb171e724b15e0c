import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { status } from "@grpc/grpc-js";
import { caller, makeActor, testDb, testDrivers } from "../../test/harness.ts";
import { scaledToZero, servedEndpoint, startTestGateway, tenantWithKey } from "../../test/gateway-kit.ts";
import { inferenceClient } from "../../test/grpc-client.ts";
import { startClusterSync } from "../../cluster/sync.ts";
import { startAutoscaler } from "../../autoscale/loop.ts";

let gw: Awaited<ReturnType<typeof startTestGateway>>;
let stopSync: () => void;
let autoscaler: ReturnType<typeof startAutoscaler>;
let client: ReturnType<typeof inferenceClient>;

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  autoscaler = startAutoscaler({ db: testDb(), drivers: testDrivers(), signal: async () => null }, 250);
  gw = await startTestGateway({ grpcPort: 0 });
  client = inferenceClient(gw.gateway.grpcUrl!);
});
afterAll(async () => {
  client?.close();
  await gw?.close();
  await autoscaler?.stop();
  stopSync?.();
});

const request = (slug: string) => ({ model_name: slug, inputs: [{ name: "images", datatype: "UINT8", shape: [1, 2, 2], contents: { uint_contents: [1, 2, 3, 4] } }] });

describe("scale from zero over gRPC (KServe v2 ModelInfer)", () => {
  it("holds calls that arrive while a version scaled to zero starts a replica, and serves every one", async () => {
    const ep = await scaledToZero("vision");
    const { secret } = await tenantWithKey();
    await gw.gateway.config.reload();
    const answers = await Promise.all(Array.from({ length: 10 }, () => client.call("ModelInfer", request(ep.endpoint.slug), secret)));
    expect(answers.map((a) => a.error?.code ?? "OK")).toEqual(Array(10).fill("OK"));
    expect(await ep.started()).toHaveLength(1);
    await ep.done();
  });

  it("past the endpoint's queue length or timeout, answers UNAVAILABLE with when to retry", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }], "vision");
    const operator = await makeActor("operator");
    await caller(operator).cluster.stopReplica({ replicaId: ep.replicas[0]!.id });
    // A replica that stays loading for a while: nothing will answer within the timeout.
    await testDb().replica.create({ data: { endpointVersionId: ep.versions[0]!.id, driver: "sim", region: "tr-ank", state: "loading", expectedReadyAt: new Date(Date.now() + 30_000) } });
    await caller(operator).autoscale.setColdStart({ endpointId: ep.endpoint.id, coldStartQueueLimit: 1, coldStartTimeoutSeconds: 1 });
    const { secret, tenant } = await tenantWithKey();
    await gw.gateway.config.reload();
    const t = Date.now();
    const held = client.call("ModelInfer", request(ep.endpoint.slug), secret);
    await new Promise((r) => setTimeout(r, 200));
    const refused = await client.call("ModelInfer", request(ep.endpoint.slug), secret);
    expect(refused.error?.code).toBe(status.UNAVAILABLE);
    expect(refused.error?.details).toMatch(/already holds 1 call/);
    const timedOut = await held;
    expect(Date.now() - t).toBeGreaterThanOrEqual(1000);
    expect(timedOut.error?.code).toBe(status.UNAVAILABLE);
    expect(timedOut.error?.details).toMatch(/became ready within 1 s/);
    const retryS = Number(timedOut.error?.metadata.get("retry-after")[0]);
    expect(retryS).toBeGreaterThan(20);
    expect(timedOut.error?.metadata.get("grpc-retry-pushback-ms")).toEqual([String(retryS * 1000)]);
    await gw.gateway.callLog.flush();
    const rows = await testDb().callLog.findMany({ where: { tenantId: tenant.id }, orderBy: { startedAt: "asc" } });
    expect(rows.map((r) => [r.status, r.errorClass]).sort()).toEqual([
      [503, "cold_start_queue_full"],
      [503, "cold_start_timeout"],
    ]);
  });
});
