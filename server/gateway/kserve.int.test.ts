import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";

let gw: Awaited<ReturnType<typeof startTestGateway>>;
let stopSync: () => void;
let vision: Awaited<ReturnType<typeof servedEndpoint>>;
let tenant: Awaited<ReturnType<typeof tenantWithKey>>;

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  vision = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }], "embedding");
  tenant = await tenantWithKey();
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
  stopSync?.();
});

const get = (path: string, secret?: string) => fetch(`${gw.base}${path}`, { headers: secret ? { authorization: `Bearer ${secret}` } : {} });
const infer = (body: unknown) => fetch(`${gw.base}/v2/models/${vision.endpoint.slug}/infer`, { method: "POST", headers: { authorization: `Bearer ${tenant.secret}`, "content-type": "application/json" }, body: JSON.stringify(body) });

describe("KServe v2 (the Open Inference Protocol) at the gateway", () => {
  it("answers liveness, readiness and server metadata to anyone", async () => {
    expect(await (await get("/v2/health/live")).json()).toEqual({ live: true });
    expect(await (await get("/v2/health/ready")).json()).toEqual({ ready: true });
    expect(await (await get("/v2")).json()).toMatchObject({ name: "kule", extensions: [] });
  });

  it("answers a model's readiness and metadata to a key that may call it, under the endpoint's name", async () => {
    await gw.gateway.config.reload();
    expect((await get(`/v2/models/${vision.endpoint.slug}`)).status).toBe(401);
    const meta = await get(`/v2/models/${vision.endpoint.slug}`, tenant.secret);
    expect(meta.status).toBe(200);
    expect(await meta.json()).toMatchObject({ name: vision.endpoint.slug, versions: ["1.0"], inputs: [{ name: "INPUT0" }] });
    expect(await (await get(`/v2/models/${vision.endpoint.slug}/versions/1.0/ready`, tenant.secret)).json()).toEqual({ name: vision.endpoint.slug, ready: true });
    const stranger = await tenantWithKey({ allowedEndpointIds: ["some-other-endpoint"] });
    await gw.gateway.config.reload();
    expect((await get(`/v2/models/${vision.endpoint.slug}`, stranger.secret)).status).toBe(404);
    // Not inference: nothing is charged against the endpoint for asking.
    expect(await testDb().callLog.count({ where: { tenantId: tenant.tenant.id, endpointId: { not: null } } })).toBe(0);
  });

  const tensor = { name: "images", datatype: "UINT8", shape: [1, 2, 2], data: [1, 2, 3, 4] };
  const BAD: { name: string; body: unknown; status: number; error: RegExp }[] = [
    { name: "no inputs", body: {}, status: 400, error: /inputs/ },
    { name: "data shorter than the shape", body: { inputs: [{ ...tensor, data: [1, 2, 3] }] }, status: 400, error: /input 'images': shape \[1,2,2\] holds 4 elements, but data has 3/ },
    { name: "a value out of its datatype's range", body: { inputs: [{ ...tensor, data: [1, 2, 3, 300] }] }, status: 400, error: /input 'images': element 3 \(300\) is not an integer from 0 to 255, as datatype UINT8 needs/ },
    { name: "an unknown datatype", body: { inputs: [{ ...tensor, datatype: "FP8" }] }, status: 400, error: /input 'images': inputs\[0\]\.datatype must be one of BOOL, UINT8/ },
    { name: "strings for BYTES that are numbers", body: { inputs: [{ name: "text", datatype: "BYTES", shape: [2], data: ["a", 2] }] }, status: 400, error: /input 'text': element 1 \(2\) is not a string/ },
    { name: "one input given twice", body: { inputs: [tensor, tensor] }, status: 400, error: /input 'images' is given twice/ },
  ];
  for (const c of BAD) {
    it(`refuses ${c.name} with a 400 naming the input, before any replica sees it`, async () => {
      const res = await infer(c.body);
      expect(res.status).toBe(c.status);
      expect(((await res.json()) as { error: string }).error).toMatch(c.error);
    });
  }

  it("serves a well-formed infer, nested data included", async () => {
    const res = await infer({ inputs: [{ ...tensor, data: [[[1, 2], [3, 4]]] }] });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ model_name: vision.endpoint.slug, outputs: [{ name: "OUTPUT0", datatype: "FP32" }] });
  });
});
