import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { status } from "@grpc/grpc-js";
import { caller, makeActor, testDb, testDrivers } from "../../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../../test/gateway-kit.ts";
import { inferenceClient } from "../../test/grpc-client.ts";
import { startClusterSync } from "../../cluster/sync.ts";

let gw: Awaited<ReturnType<typeof startTestGateway>>;
let stopSync: () => void;
let vision: Awaited<ReturnType<typeof servedEndpoint>>;
let tenant: Awaited<ReturnType<typeof tenantWithKey>>;
let client: ReturnType<typeof inferenceClient>;

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  vision = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }], "vision");
  tenant = await tenantWithKey();
  gw = await startTestGateway({ grpcPort: 0 });
  client = inferenceClient(gw.gateway.grpcUrl!);
});
afterAll(async () => {
  client?.close();
  await gw?.close();
  stopSync?.();
});

interface InferOutput {
  name: string;
  datatype: string;
  shape: number[];
  contents: { fp32_contents: number[] } | null;
}
interface InferAnswer {
  model_name: string;
  outputs: InferOutput[];
  raw_output_contents: Buffer[];
}

const images = { name: "images", datatype: "UINT8", shape: [1, 2, 2] };
const infer = (request: object, secret = tenant.secret, extra?: Record<string, string>) => client.call<InferAnswer>("ModelInfer", { model_name: vision.endpoint.slug, ...request }, secret, extra);

/** What the same tensor gets over KServe v2 REST through the gateway, as float32 (the gRPC answer's precision). */
async function restOutput() {
  const res = await fetch(`${gw.base}/v2/models/${vision.endpoint.slug}/infer`, { method: "POST", headers: { authorization: `Bearer ${tenant.secret}` }, body: JSON.stringify({ inputs: [{ ...images, data: [1, 2, 3, 4] }] }) });
  expect(res.status).toBe(200);
  const out = ((await res.json()) as { outputs: { shape: number[]; data: number[] }[] }).outputs[0]!;
  return { shape: out.shape, data: out.data.map(Math.fround) };
}

describe("KServe v2 over gRPC at the gateway", () => {
  it("answers liveness, readiness and server metadata to anyone", async () => {
    expect((await client.call("ServerLive", {})).value).toEqual({ live: true });
    expect((await client.call("ServerReady", {})).value).toEqual({ ready: true });
    expect((await client.call("ServerMetadata", {})).value).toMatchObject({ name: "kule", extensions: [] });
  });

  it("answers a model's readiness and metadata to a key that may call it, under the endpoint's name", async () => {
    await gw.gateway.config.reload();
    const meta = await client.call("ModelMetadata", { name: vision.endpoint.slug }, tenant.secret);
    expect(meta.error).toBeNull();
    expect(meta.value).toMatchObject({ name: vision.endpoint.slug, versions: ["1.0"], inputs: [{ name: "INPUT0", datatype: "UINT8", shape: [-1, -1] }], outputs: [{ name: "OUTPUT0", datatype: "FP32" }] });
    expect((await client.call("ModelReady", { name: vision.endpoint.slug }, tenant.secret)).value).toEqual({ ready: true });
    expect((await client.call("ModelMetadata", { name: vision.endpoint.slug })).error?.code).toBe(status.UNAUTHENTICATED);
  });

  it("serves ModelInfer to the vision replica: the detections REST gets, in typed contents, with the call's headers", async () => {
    const expected = await restOutput();
    const res = await infer({ inputs: [{ ...images, contents: { uint_contents: [1, 2, 3, 4] } }] });
    expect(res.error).toBeNull();
    expect(res.value!.model_name).toBe(vision.endpoint.slug);
    expect(res.value!.outputs).toEqual([{ name: "OUTPUT0", datatype: "FP32", shape: expected.shape, parameters: {}, contents: expect.objectContaining({ fp32_contents: expected.data }) }]);
    expect(res.headers?.get("x-kule-version")).toEqual(["1.0"]);
    expect(res.headers?.get("x-kule-replica-region")).toEqual(["tr-ank"]);

    await gw.gateway.callLog.flush();
    const row = await testDb().callLog.findFirstOrThrow({ where: { requestId: String(res.headers!.get("x-kule-request-id")[0]) } });
    expect(row).toMatchObject({ tenantId: tenant.tenant.id, endpointId: vision.endpoint.id, endpointVersionId: vision.versions[0]!.id, status: 200, region: "tr-ank", errorClass: null });
  });

  it("takes raw little-endian tensors and answers in raw_output_contents, as Triton does", async () => {
    const expected = await restOutput();
    const res = await infer({ inputs: [images], raw_input_contents: [Buffer.from([1, 2, 3, 4])] });
    expect(res.error).toBeNull();
    const raw = res.value!.raw_output_contents[0]!;
    expect(Array.from(new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length)))).toEqual(expected.data);
    expect(res.value!.outputs[0]).toMatchObject({ name: "OUTPUT0", shape: expected.shape, contents: null });
  });

  it("refuses a missing, wrong or revoked key with UNAUTHENTICATED", async () => {
    const revoked = await tenantWithKey({ revoked: true });
    await gw.gateway.config.reload();
    const cases = [[undefined, /Missing API key/], ["kule_wrong" + "x".repeat(40), /Incorrect API key/], [revoked.secret, /revoked/]] as const;
    for (const [secret, message] of cases) {
      const res = await client.call("ModelInfer", { model_name: vision.endpoint.slug, inputs: [{ ...images, contents: { uint_contents: [1, 2, 3, 4] } }] }, secret);
      expect(res.error?.code).toBe(status.UNAUTHENTICATED);
      expect(res.error?.details).toMatch(message);
    }
  });

  it("answers NOT_FOUND for a model that does not exist or that the key may not call", async () => {
    const stranger = await tenantWithKey({ allowedEndpointIds: ["some-other-endpoint"] });
    await gw.gateway.config.reload();
    for (const [model, secret] of [["no-such-model", tenant.secret], [vision.endpoint.slug, stranger.secret]]) {
      const res = await infer({ model_name: model, inputs: [{ ...images, contents: { uint_contents: [1, 2, 3, 4] } }] }, secret);
      expect(res.error?.code).toBe(status.NOT_FOUND);
      expect(res.error?.details).toMatch(/does not exist or you do not have access to it/);
    }
  });

  const BAD: { name: string; request: object; error: RegExp }[] = [
    { name: "data shorter than the shape", request: { inputs: [{ ...images, contents: { uint_contents: [1, 2, 3] } }] }, error: /input 'images': shape \[1,2,2\] holds 4 elements, but data has 3/ },
    { name: "a value out of its datatype's range", request: { inputs: [{ ...images, contents: { uint_contents: [1, 2, 3, 300] } }] }, error: /input 'images': element 3 \(300\) is not an integer from 0 to 255/ },
    { name: "data in another datatype's field", request: { inputs: [{ ...images, contents: { fp32_contents: [1, 2, 3, 4] } }] }, error: /input 'images': datatype UINT8 takes its data in contents\.uint_contents, but it came in contents\.fp32_contents/ },
    { name: "raw bytes that are not whole elements", request: { inputs: [{ ...images, datatype: "FP32" }], raw_input_contents: [Buffer.alloc(6)] }, error: /input 'images': 6 raw bytes are not a whole number of FP32 elements/ },
    { name: "no inputs", request: { inputs: [] }, error: /inputs/ },
  ];
  for (const c of BAD) {
    it(`refuses ${c.name} with INVALID_ARGUMENT naming the input, before any replica sees it`, async () => {
      const res = await infer(c.request);
      expect(res.error?.code).toBe(status.INVALID_ARGUMENT);
      expect(res.error?.details).toMatch(c.error);
    });
  }

  it("refuses a call over the key's rate limit with RESOURCE_EXHAUSTED, the limit's message and retry-after, and logs it", async () => {
    const limited = await tenantWithKey({ rpmLimit: 1 });
    await gw.gateway.config.reload();
    const request = { inputs: [{ ...images, contents: { uint_contents: [1, 2, 3, 4] } }] };
    expect((await infer(request, limited.secret)).error).toBeNull();
    const refused = await infer(request, limited.secret);
    expect(refused.error?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(refused.error?.details).toMatch(/Rate limit reached for requests per minute on this API key/);
    expect(Number(refused.error?.metadata.get("retry-after")[0])).toBeGreaterThan(0);
    await gw.gateway.callLog.flush();
    const rows = await testDb().callLog.findMany({ where: { tenantId: limited.tenant.id }, orderBy: { startedAt: "asc" } });
    expect(rows.map((r) => [r.status, r.errorClass, r.endpointId])).toEqual([
      [200, null, vision.endpoint.id],
      [429, "limit_rpm_key", vision.endpoint.id],
    ]);
  });

  it("keeps a Turkey-only tenant's call in Turkey: UNAVAILABLE when the only ready replica is abroad, served for a tenant a safeguard covers there", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }], "vision");
    const backing = ep.replicas[0]!;
    const abroad = await caller(await makeActor("operator")).cluster.registerExternal({ endpointVersionId: ep.versions[0]!.id, url: backing.url!, region: "de-fra" });
    await expect.poll(async () => (await testDb().replica.findUniqueOrThrow({ where: { id: abroad.id } })).state, { timeout: 20_000 }).toBe("ready");
    await testDb().replica.update({ where: { id: backing.id }, data: { state: "failed", reason: "test: taken out" } });
    const kvkk = await tenantWithKey({ kvkk: true });
    // Served abroad only from a verified region, under a recorded safeguard for that country (KVKK Art. 9).
    const admin = caller(await makeActor("admin"));
    await admin.kvkk.regions.verify({ replicaId: abroad.id, evidence: "Colocation contract 17, Frankfurt FR5" });
    await admin.kvkk.safeguards.create({ tenantId: tenant.tenant.id, destination: "de", importer: "Rechen GmbH, Frankfurt", mechanism: "standard_contract", reference: "SCC-17", signedAt: new Date(Date.now() - 86_400_000) });
    await gw.gateway.config.reload();
    const request = { model_name: ep.endpoint.slug, inputs: [{ ...images, contents: { uint_contents: [1, 2, 3, 4] } }] };
    const refused = await infer(request, kvkk.secret);
    expect(refused.error?.code).toBe(status.UNAVAILABLE);
    expect(refused.error?.details).toMatch(/Turkey.*KVKK/);
    const served = await infer(request);
    expect(served.error).toBeNull();
    expect(served.headers?.get("x-kule-replica-region")).toEqual(["de-fra"]);
  });
  it("routes by the endpoint's replica choice as HTTP does: a prefix-aware endpoint sends text prompts sharing a beginning to one replica, and says why", async () => {
    const ep = await servedEndpoint("cpu", [
      { weight: 100, device: { host: "cpu-1" } },
      { weight: 0, device: { host: "cpu-1" } },
    ], "vision");
    // Both replicas under the live version, so the choice is between replicas, not versions.
    await testDb().replica.update({ where: { id: ep.replicas[1]!.id }, data: { endpointVersionId: ep.versions[0]!.id } });
    const { revision } = await testDb().endpoint.findUniqueOrThrow({ where: { id: ep.endpoint.id } });
    await caller(await makeActor("operator")).endpoint.update({ id: ep.endpoint.id, expectedRevision: revision, replicaChoice: "prefix_aware" });
    const t = await tenantWithKey();
    await gw.gateway.config.reload();
    const system = "You are Kule's support assistant. Answer briefly, in the caller's language. ".repeat(6);
    // Triton's vLLM backend takes the prompt as a BYTES tensor, text_input.
    for (const question of ["hello", "merhaba", "what is a GPU?", "fiyatlar?"]) {
      const res = await infer({ model_name: ep.endpoint.slug, inputs: [{ name: "text_input", datatype: "BYTES", shape: [1], contents: { bytes_contents: [Buffer.from(system + question)] } }] }, t.secret);
      expect(res.error).toBeNull();
    }
    // Numeric tensors carry no prompt: they go by load, as on HTTP.
    expect((await infer({ model_name: ep.endpoint.slug, inputs: [{ ...images, contents: { uint_contents: [1, 2, 3, 4] } }] }, t.secret)).error).toBeNull();
    await gw.gateway.callLog.flush();
    const rows = await testDb().callLog.findMany({ where: { tenantId: t.tenant.id }, orderBy: { startedAt: "asc" } });
    expect(rows.map((r) => r.routeReason)).toEqual(["affinity", "affinity", "affinity", "affinity", "load"]);
    expect(new Set(rows.slice(0, 4).map((r) => r.replica)).size).toBe(1);
  });
});
