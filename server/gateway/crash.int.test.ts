import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, tenantWithKey } from "../test/gateway-kit.ts";
import { gatewayPort, spawnGateway, type GatewayProcess } from "../test/gateway-process.ts";
import { crashRun } from "../test/crash-run.ts";
import { startClusterSync } from "../cluster/sync.ts";

let stopSync: () => void;
const started: GatewayProcess[] = [];
beforeAll(() => {
  stopSync = startClusterSync(testDb(), testDrivers());
});
afterAll(() => {
  stopSync?.();
  for (const g of started) if (g.child.exitCode === null) g.child.kill("SIGKILL");
});

describe("a gateway killed with SIGKILL", () => {
  it("loses no answered call's row and counts none twice, at 1,000 requests a second", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey();
    const port = gatewayPort();
    const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), "kule-crash-"));
    const result = await crashRun({
      databaseUrl: inject("databaseUrl"),
      start: () => {
        const g = spawnGateway(port, { DATABASE_URL: inject("databaseUrl"), KULE_GATEWAY_SPOOL_DIR: spoolDir });
        started.push(g);
        return g;
      },
      headers: { authorization: `Bearer ${t.secret}` },
      body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "Merhaba" }], max_tokens: 2 }),
    });
    // The kill landed mid-load: many calls were answered before it, some never were (on a shared
    // 2-core machine the test cluster answers a few hundred of the 1,000 sent before the kill).
    expect(result.answered).toBeGreaterThan(100);
    expect(result.unanswered).toBeGreaterThan(0);
    expect({ lost: result.lost, doubled: result.doubled }).toEqual({ lost: 0, doubled: 0 });
    // The dead gateway's journal was replayed and removed by its successor.
    expect(fs.readdirSync(path.join(spoolDir, "journal"))).toEqual([]);
  }, 90_000);
});
