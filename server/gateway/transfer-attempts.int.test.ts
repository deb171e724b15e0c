import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { caller, makeActor, testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";

let gw: Awaited<ReturnType<typeof startTestGateway>>;
let stopSync: () => void;
let busy: http.Server;

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  // A vLLM server in Frankfurt that is up but full: it answers 503 to every inference call.
  busy = http.createServer((req, res) => {
    if (req.method === "GET") return void res.writeHead(200, { "content-type": "application/json" }).end('{"object":"list","data":[]}');
    req.resume();
    res.writeHead(503, { "content-type": "application/json" }).end('{"error":{"message":"engine overloaded"}}');
  });
  await new Promise<void>((r) => busy.listen(0, "127.0.0.1", r));
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
  stopSync?.();
  busy?.close();
});

describe("every attempt's region is a transfer (KVKK Art. 9)", () => {
  it("records the region abroad that a call was first sent to, when it was answered from Turkey after a 503", async () => {
    const [operator, admin, auditor] = [await makeActor("operator"), await makeActor("admin"), await makeActor("auditor")];
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const backing = ep.replicas[0]!;
    const version = ep.versions[0]!.id;
    // Frankfurt registered first, so it is the first the gateway tries; Istanbul takes the retry.
    const fra = await caller(operator).cluster.registerExternal({ endpointVersionId: version, url: `http://127.0.0.1:${(busy.address() as AddressInfo).port}`, region: "eu-fra" });
    const ist = await caller(operator).cluster.registerExternal({ endpointVersionId: version, url: backing.url!, region: "tr-ist" });
    for (const r of [fra, ist]) await expect.poll(async () => (await testDb().replica.findUniqueOrThrow({ where: { id: r.id } })).state, { timeout: 20_000 }).toBe("ready");
    await testDb().replica.update({ where: { id: backing.id }, data: { state: "failed", reason: "test: taken out" } });
    for (const r of [fra, ist]) await caller(admin).kvkk.regions.verify({ replicaId: r.id, evidence: "Colocation contract 17, checked on site" });
    const t = await tenantWithKey();
    await caller(admin).kvkk.safeguards.create({ tenantId: t.tenant.id, destination: "de", importer: "Rechen GmbH, Frankfurt", mechanism: "standard_contract", reference: "SCC-18", signedAt: new Date(Date.now() - 86_400_000) });
    await gw.gateway.config.reload();

    const from = new Date(Date.now() - 60_000);
    const r = await fetch(`${gw.base}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "x" }], max_tokens: 1 }),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-kule-replica-region")).toBe("tr-ist");
    await gw.gateway.callLog.flush();
    const [row] = await testDb().callLog.findMany({ where: { tenantId: t.tenant.id } });
    expect([row!.region, row!.otherRegions]).toEqual(["tr-ist", "eu-fra"]);

    // The residency map counts the call in Frankfurt too, covered by the tenant's safeguard (Germany).
    const map = await caller(auditor).kvkk.residency({ from, to: new Date(Date.now() + 60_000), tenantId: t.tenant.id });
    expect(map.cells.map((c) => [c.region, c.calls, c.uncovered]).sort()).toEqual([
      ["eu-fra", 1, 0],
      ["tr-ist", 1, 0],
    ]);
  });
});
