import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type net from "node:net";
import { caller, makeActor, testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";

let gw: Awaited<ReturnType<typeof startTestGateway>>;
let stopSync: () => void;

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
  stopSync?.();
});

const system = "You are Kule's support assistant. Answer briefly, in the caller's language. ".repeat(12);
const chat = (slug: string, user: string) => JSON.stringify({ model: slug, messages: [{ role: "system", content: system }, { role: "user", content: user }], max_tokens: 3 });
async function key(opts: Parameters<typeof tenantWithKey>[0] = {}) {
  const t = await tenantWithKey(opts);
  await gw.gateway.config.reload();
  return t;
}
const post = (secret: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${secret}`, ...headers }, body }).then(async (r) => ({ status: r.status, body: await r.text() }));

async function rows(tenantId: string) {
  await gw.gateway.callLog.flush();
  return testDb().callLog.findMany({ where: { tenantId }, orderBy: { startedAt: "asc" } });
}

/** An operator's change of the endpoint's routing, through the procedure the settings form calls. */
async function route(endpointId: string, change: Record<string, unknown>) {
  const db = testDb();
  const { revision } = await db.endpoint.findUniqueOrThrow({ where: { id: endpointId } });
  await caller(await makeActor("operator")).endpoint.update({ id: endpointId, expectedRevision: revision, ...change });
  await gw.gateway.config.reload();
}

describe("routing inside and across endpoints", () => {
  it("sends calls sharing a prompt prefix to one replica, says why in the call log, and the replica serves the prefix from its cache", async () => {
    const ep = await servedEndpoint("cpu", [
      { weight: 100, device: { host: "cpu-1" } },
      { weight: 0, device: { host: "cpu-1" } },
    ]);
    await testDb().replica.update({ where: { id: ep.replicas[1]!.id }, data: { endpointVersionId: ep.versions[0]!.id } });
    await route(ep.endpoint.id, { replicaChoice: "prefix_aware" });
    const t = await key();
    for (const q of ["hello", "merhaba", "what is a GPU?", "fiyatlar?"]) expect((await post(t.secret, chat(ep.endpoint.slug, q))).status).toBe(200);
    const served = await rows(t.tenant.id);
    expect(new Set(served.map((r) => r.replica)).size).toBe(1);
    expect(served.map((r) => r.routeReason)).toEqual(Array(4).fill("affinity"));
    const url = (await testDb().replica.findUniqueOrThrow({ where: { id: served[0]!.replica! } })).url!;
    const hits = Number(/^vllm:prefix_cache_hits_total(?:\{[^}]*\})? (\S+)$/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1]);
    expect(hits).toBeGreaterThanOrEqual(3 * 16);
    const audit = await testDb().auditEvent.findFirstOrThrow({ where: { action: "endpoint.update", targetId: ep.endpoint.id }, orderBy: { id: "desc" } });
    expect(audit.after).toMatchObject({ replicaChoice: "prefix_aware" });
  });

  it("falls back to the next endpoint when the first has no replica that answers, records the chain, and never to an endpoint the key may not call", async () => {
    const [primary, backup] = [await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]), await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }])];
    const gone = http.createServer((req, res) => void req.resume().on("end", () => res.writeHead(500).end("{}")));
    await new Promise<void>((r) => gone.listen(0, "127.0.0.1", () => r()));
    try {
      await testDb().replica.update({ where: { id: primary.replicas[0]!.id }, data: { url: `http://127.0.0.1:${(gone.address() as net.AddressInfo).port}` } });
      await route(primary.endpoint.id, { fallbackEndpointIds: [backup.endpoint.id] });
      const t = await key();
      const answered = await post(t.secret, chat(primary.endpoint.slug, "hello"));
      expect(answered.status).toBe(200);
      const [row] = await rows(t.tenant.id);
      expect(row).toMatchObject({ status: 200, endpointId: backup.endpoint.id, fallbackChain: `${primary.endpoint.slug}:500` });
      // The call log's page shows the chain and why the replica was picked.
      const shown = await caller(await makeActor("admin")).callLog.get({ requestId: row!.requestId });
      expect(shown).toMatchObject({ endpointSlug: backup.endpoint.slug, fallbackChain: `${primary.endpoint.slug}:500`, routeReason: "load" });

      const narrow = await key({ allowedEndpointIds: [primary.endpoint.id] });
      expect((await post(narrow.secret, chat(primary.endpoint.slug, "hello"))).status).toBe(500);
      expect((await rows(narrow.tenant.id)).map((r) => [r.endpointId, r.fallbackChain])).toEqual([[primary.endpoint.id, null]]);
    } finally {
      gone.close();
    }
  });

  it("sends a class of calls on to its endpoint and logs the class; refuses a class naming the endpoint itself, on the field", async () => {
    const [front, gold] = [await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]), await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }])];
    await route(front.endpoint.id, { requestClasses: [{ name: "gold", match: { kind: "header", name: "X-Tier", value: "gold" }, endpointId: gold.endpoint.id }] });
    const t = await key();
    expect((await post(t.secret, chat(front.endpoint.slug, "hi"), { "x-tier": "gold" })).status).toBe(200);
    expect((await post(t.secret, chat(front.endpoint.slug, "hi"))).status).toBe(200);
    expect((await rows(t.tenant.id)).map((r) => [r.endpointId, r.requestClass])).toEqual([
      [gold.endpoint.id, "gold"],
      [front.endpoint.id, null],
    ]);
    await expect(route(front.endpoint.id, { requestClasses: [{ name: "self", match: { kind: "header", name: "x-a", value: "b" }, endpointId: front.endpoint.id }] })).rejects.toMatchObject({
      message: expect.stringContaining("itself"),
    });
  });

  it("copies a share of calls to a shadow version without the client waiting, bills only the live answer, and charts the shadow's figures apart", async () => {
    const ep = await servedEndpoint("cpu", [
      { weight: 100, device: { host: "cpu-1" } },
      { weight: 0, device: { host: "cpu-1" } },
    ]);
    const t = await key();
    const op = caller(await makeActor("operator"));
    const rev = async () => (await testDb().endpoint.findUniqueOrThrow({ where: { id: ep.endpoint.id } })).revision;
    await expect(op.endpoint.setShadow({ endpointVersionId: ep.versions[0]!.id, expectedRevision: await rev(), percent: 50 })).rejects.toMatchObject({ message: expect.stringContaining("weight 0") });
    await op.endpoint.setShadow({ endpointVersionId: ep.versions[1]!.id, expectedRevision: await rev(), percent: 50 });
    await gw.gateway.config.reload();
    for (let i = 0; i < 4; i++) expect((await post(t.secret, chat(ep.endpoint.slug, `q${i}`))).status).toBe(200);
    expect((await rows(t.tenant.id)).map((r) => r.endpointVersionId)).toEqual(Array(4).fill(ep.versions[0]!.id));
    const shadowed = async () => Number(/^kule_gateway_shadow_requests_total\{[^}]*version="2\.0"[^}]*status="200"[^}]*\} (\S+)$/m.exec(await gw.gateway.metrics.registry.metrics())?.[1] ?? 0);
    await expect.poll(shadowed, { timeout: 3000 }).toBe(2);
  });
});
