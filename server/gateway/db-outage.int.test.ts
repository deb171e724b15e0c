import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import path from "node:path";
import { testDb, testDrivers } from "../test/harness.ts";
import { CuttableProxy, databaseProxy, servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";

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

describe("the database goes away under load, then returns", () => {
  it("keeps answering from memory, spools the call log, and afterwards holds every answered request exactly once", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey();
    const gw = await startTestGateway({ viaProxy: proxy });
    const answered: string[] = [];
    const gatewayErrors: number[] = [];
    let running = true;
    const body = JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "steady" }], max_tokens: 2 });
    const worker = async () => {
      while (running) {
        const r = await fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${t.secret}`, "content-type": "application/json" }, body });
        await r.arrayBuffer();
        if (r.status === 200) answered.push(r.headers.get("x-kule-request-id")!);
        else gatewayErrors.push(r.status);
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, worker));
    try {
      await new Promise((r) => setTimeout(r, 700));
      proxy.sever();
      // Calls keep being answered while their rows go to the spool (however busy the machine).
      await expect.poll(() => gw.gateway.callLog.spooledRows, { timeout: 20_000 }).toBeGreaterThan(0);
      proxy.restore();
      await new Promise((r) => setTimeout(r, 700));
    } finally {
      running = false;
      proxy.restore(); // a failed check must not leave the next test without a database
      await load;
    }
    await gw.gateway.callLog.flush();
    await expect.poll(() => gw.gateway.callLog.spooledRows, { timeout: 10_000 }).toBe(0);
    await gw.close();

    expect(gatewayErrors).toEqual([]);
    expect(answered.length).toBeGreaterThan(100);
    const rows = await testDb().callLog.findMany({ where: { tenantId: t.tenant.id }, select: { requestId: true, status: true } });
    expect(rows).toHaveLength(answered.length);
    expect(new Set(rows.map((r) => r.requestId))).toEqual(new Set(answered));
  }, 60_000);

  it("replays a spool left by a gateway that stopped while the database was away", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey();
    const first = await startTestGateway({ viaProxy: proxy });
    proxy.sever();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await fetch(`${first.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${t.secret}` }, body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "x" }], max_tokens: 1 }) });
      expect(r.status).toBe(200);
      ids.push(r.headers.get("x-kule-request-id")!);
    }
    const spoolDir = path.dirname(first.gateway.callLog.spoolFile);
    await first.gateway.callLog.flush();
    expect(first.gateway.callLog.spooledRows).toBe(20);
    // Stop with the database still away: the rows stay in the spool file.
    await first.close().catch(() => {});
    proxy.restore();
    const { CallLogWriter } = await import("./call-log-writer.ts");
    const pg = (await import("pg")).default;
    const pool = new pg.Pool({ connectionString: inject("databaseUrl") });
    const restarted = new CallLogWriter(pool, spoolDir);
    expect(restarted.spooledRows).toBe(20);
    await restarted.flush();
    await restarted.close();
    await pool.end();
    const rows = await testDb().callLog.findMany({ where: { tenantId: t.tenant.id } });
    expect(new Set(rows.map((r) => r.requestId))).toEqual(new Set(ids));
  }, 60_000);
});
