import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import net from "node:net";
import { testDb, testDrivers } from "../test/harness.ts";
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

const chatBody = (slug: string, extra: Record<string, unknown> = {}) => JSON.stringify({ model: slug, messages: [{ role: "user", content: "hello" }], max_tokens: 4, ...extra });

/** A replica's running requests, as its vLLM-style /metrics says. */
async function running(replicaUrl: string): Promise<number> {
  const text = await (await fetch(`${replicaUrl}/metrics`)).text();
  return Number(/^vllm:num_requests_running(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1] ?? NaN);
}

/** Two ready replicas of one version, the first in the gateway's order turned into `bad` (a URL the test controls). */
async function twoReplicas(badUrl: string) {
  const ep = await servedEndpoint("cpu", [
    { weight: 100, device: { host: "cpu-1" } },
    { weight: 0, device: { host: "cpu-1" } },
  ]);
  // Move the second version's replica under the first version: one version, two replicas.
  await testDb().replica.update({ where: { id: ep.replicas[1]!.id }, data: { endpointVersionId: ep.versions[0]!.id } });
  const [bad, good] = [...ep.replicas].sort((a, b) => (a.id < b.id ? -1 : 1)); // the gateway orders replicas by id; ties go to the first
  await testDb().replica.update({ where: { id: bad!.id }, data: { url: badUrl } });
  await gw.gateway.config.reload();
  return { ep, bad: bad!, good: good! };
}

async function callTen(slug: string, secret: string) {
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) {
    const r = await fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${secret}` }, body: chatBody(slug) });
    await r.arrayBuffer();
    statuses.push(r.status);
  }
  return statuses;
}

describe("the gateway and its upstreams", () => {
  it("cancels the upstream request when the client goes away mid-stream, and logs the call as closed by the client", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey();
    await gw.gateway.config.reload();
    const replicaUrl = (await testDb().replica.findUniqueOrThrow({ where: { id: ep.replicas[0]!.id } })).url!;
    const abort = new AbortController();
    const r = await fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${t.secret}` }, body: chatBody(ep.endpoint.slug, { max_tokens: 2000, stream: true }), signal: abort.signal });
    const reader = r.body!.getReader();
    await reader.read(); // the first chunk: the answer is under way
    expect(await running(replicaUrl)).toBe(1);
    const leftAt = Date.now();
    abort.abort();
    await expect.poll(() => running(replicaUrl), { timeout: 2000, interval: 20 }).toBe(0);
    // 2,000 tokens would have taken the replica far longer than the gateway took to cancel them.
    expect(Date.now() - leftAt).toBeLessThan(2000);
    await gw.gateway.callLog.flush();
    await expect.poll(async () => (await testDb().callLog.findMany({ where: { tenantId: t.tenant.id } })).map((c) => [c.status, c.errorClass])).toEqual([[499, "client_closed"]]);
  });

  it("puts the request id on answers it refuses, and the version it chose on one no replica could serve", async () => {
    const refused = await fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: "Bearer kule_nobody" }, body: chatBody("any") });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-kule-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const gone = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => gone.listen(0, "127.0.0.1", () => r()));
    try {
      await testDb().replica.update({ where: { id: ep.replicas[0]!.id }, data: { url: `http://127.0.0.1:${(gone.address() as net.AddressInfo).port}` } });
      const t = await tenantWithKey();
      await gw.gateway.config.reload();
      const failed = await fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${t.secret}` }, body: chatBody(ep.endpoint.slug) });
      expect(failed.status).toBe(503);
      expect(failed.headers.get("x-kule-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(failed.headers.get("x-kule-version")).toBe("1.0");
      expect(failed.headers.get("x-kule-endpoint-revision")).toMatch(/^\d+$/);
    } finally {
      gone.close();
    }
  });

  /**
   * A replica URL the test controls, counting the calls it is sent. The gateway also reads each
   * replica's /metrics page now and then (overload/engine-load.ts): those are not calls.
   */
  const faults = {
    "drops the connection before answering": () => {
      const server = net.createServer((s) => {
        s.once("data", (head) => {
          if (!head.toString("latin1").startsWith("GET /metrics")) stub.attempts++;
          s.destroy();
        });
      });
      const stub = { attempts: 0, server, close: () => server.close() };
      return stub;
    },
    "answers 503 before any byte reached the client": () => {
      const server = http.createServer((req, res) => {
        req.resume();
        if (req.url === "/metrics") return void res.writeHead(404).end();
        stub.attempts++;
        res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "Replica is draining and takes no new requests." } }));
      });
      const stub = { attempts: 0, server, close: () => (server.closeAllConnections(), server.close()) };
      return stub;
    },
  };

  it.each(Object.keys(faults))("tries another replica once when one %s, and cools down a replica that keeps failing", async (fault) => {
    const stub = faults[fault as keyof typeof faults]();
    await new Promise<void>((r) => stub.server.listen(0, "127.0.0.1", () => r()));
    try {
      const { ep, good } = await twoReplicas(`http://127.0.0.1:${(stub.server.address() as net.AddressInfo).port}`);
      const t = await tenantWithKey();
      await gw.gateway.config.reload();
      expect(await callTen(ep.endpoint.slug, t.secret)).toEqual(Array(10).fill(200));
      // Three failures (the test gateway's threshold) take the replica out: the other seven went straight to the good one.
      expect(stub.attempts).toBe(3);
      await gw.gateway.callLog.flush();
      const rows = await testDb().callLog.findMany({ where: { tenantId: t.tenant.id } });
      expect(rows.map((c) => c.replica)).toEqual(Array(10).fill(good.id));
    } finally {
      stub.close();
    }
  });
});
