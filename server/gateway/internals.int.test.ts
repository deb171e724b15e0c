import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { TrustedProxies } from "../http/client-ip.ts";
import { checkAdminOptions } from "./admin-server.ts";
import { revealIp } from "../call-log/keys/reveal.ts";

let stopSync: () => void;
let chat: Awaited<ReturnType<typeof servedEndpoint>>;
let tenant: Awaited<ReturnType<typeof tenantWithKey>>;
const TOKEN = "scrape-token-scrape-token";

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  chat = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
  tenant = await tenantWithKey();
});
afterAll(() => stopSync?.());

/** One chat call with a forged X-Forwarded-For; the address its call-log row recorded. */
async function loggedAddress(base: string, gatewayReload: () => Promise<void>) {
  await gatewayReload();
  const res = await fetch(`${base}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${tenant.secret}`, "content-type": "application/json", "x-forwarded-for": "6.6.6.6, 198.51.100.7" },
    body: JSON.stringify({ model: chat.endpoint.slug, messages: [{ role: "user", content: "hi" }], max_tokens: 2 }),
  });
  expect(res.status).toBe(200);
  const requestId = res.headers.get("x-kule-request-id")!;
  let row = null;
  for (let i = 0; i < 100 && !row; i++) {
    row = await testDb().callLog.findFirst({ where: { requestId } });
    if (!row) await new Promise((r) => setTimeout(r, 50));
  }
  return revealIp(row!).clientIp;
}

describe("the gateway's internals stay inside", () => {
  it("serves /metrics and /sd only on its admin listener, behind the token when one is set", async () => {
    const gw = await startTestGateway({ admin: { port: 0, host: "127.0.0.1", token: TOKEN } });
    try {
      for (const path of ["/metrics", "/sd"]) expect((await fetch(`${gw.base}${path}`)).status).toBe(404);
      expect((await fetch(`${gw.gateway.adminUrl}/metrics`)).status).toBe(401);
      const metrics = await fetch(`${gw.gateway.adminUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain("kule_gateway_in_flight_requests");
      const sd = await (await fetch(`${gw.gateway.adminUrl}/sd`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
      expect(sd[0].targets).toEqual([new URL(gw.gateway.adminUrl!).host]);
      expect((await fetch(`${gw.base}/healthz`)).status).toBe(200);
    } finally {
      await gw.close();
    }
  });

  it("refuses to open its metrics beyond loopback without a token", () => {
    expect(() => checkAdminOptions({ port: 9180, host: "0.0.0.0", token: null })).toThrow(/KULE_METRICS_TOKEN/);
    expect(() => checkAdminOptions({ port: 9180, host: "0.0.0.0", token: TOKEN })).not.toThrow();
  });
});

describe("the client address in the call log", () => {
  it("is the socket's peer when no proxy is trusted: a forged X-Forwarded-For is ignored", async () => {
    const gw = await startTestGateway();
    try {
      expect(await loggedAddress(gw.base, () => gw.gateway.config.reload())).toBe("127.0.0.1");
    } finally {
      await gw.close();
    }
  });

  it("is the right-most untrusted hop when the peer is a trusted proxy", async () => {
    const gw = await startTestGateway({ trustedProxies: new TrustedProxies(["127.0.0.1/32"]) });
    try {
      expect(await loggedAddress(gw.base, () => gw.gateway.config.reload())).toBe("198.51.100.7");
    } finally {
      await gw.close();
    }
  });
});
