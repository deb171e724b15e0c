import { execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { env } from "../env.ts";
import { gatewayPort, spawnGateway } from "../test/gateway-process.ts";

// CI and development machines run Redis on 127.0.0.1:6379; REDIS_URL may point elsewhere.
const redisUrl = env.REDIS_URL ?? "redis://127.0.0.1:6379";
let stopSync: () => void;
const started: ChildProcess[] = [];
beforeAll(() => {
  stopSync = startClusterSync(testDb(), testDrivers());
});
afterAll(() => {
  stopSync?.();
  // A test that timed out never reached its own stop: no gateway outlives the file.
  for (const child of started) if (child.exitCode === null) child.kill("SIGTERM");
});

/** `npm run gateway` as a user starts it, with the given environment. */
function startGateway(extra: Record<string, string | undefined>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kule-gw-workers-"));
  const port = gatewayPort();
  // A spool of the test's own; the data directory (and so the call log's keys, which PostgreSQL
  // records as current) the run's, as every gateway of one installation shares them.
  const g = spawnGateway(port, { DATABASE_URL: inject("databaseUrl"), KULE_GATEWAY_SPOOL_DIR: path.join(dataDir, "spool", `gateway-${port}`), ...extra });
  started.push(g.child);
  return { ...g, dataDir };
}

/** One request on a connection of its own, so the kernel deals connections out to the workers. */
function request(base: string, pathName: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(`${base}${pathName}`, { method: opts.method ?? "GET", headers: opts.headers, agent: false }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`${pathName}: no answer in 10 s`)));
    req.end(opts.body);
  });
}

/** The processes a process started (the primary → its workers). */
const childrenOf = (pid: number) =>
  execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
    .split("\n")
    .map((s) => Number(s.trim()))
    .filter(Boolean);

describe("the gateway as several worker processes", () => {
  it("refuses more than one worker without Redis, saying why", async () => {
    const g = startGateway({ KULE_GATEWAY_WORKERS: "2" });
    const { line, code } = await g.first;
    expect(code).toBe(1);
    expect(line).toContain("KULE_GATEWAY_WORKERS=2 needs REDIS_URL");
  }, 30_000);

  it("serves through its workers, logs every call once, and /metrics sums every worker", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey();
    const g = startGateway({ KULE_GATEWAY_WORKERS: "2", REDIS_URL: redisUrl });
    try {
      const { line } = await g.first;
      expect(line).toMatch(/Gateway on http:\/\/127\.0\.0\.1:\d+: 2 worker processes \(limits shared through Redis; metrics and service discovery on http:\/\/127\.0\.0\.1:\d+\)/);
      const body = JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "Merhaba" }], max_tokens: 3 });
      const headers = { authorization: `Bearer ${t.secret}`, "content-type": "application/json" };
      const answers = await Promise.all(Array.from({ length: 40 }, () => request(g.base, "/v1/chat/completions", { method: "POST", headers, body })));
      expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));

      // Each scrape lands on one worker or the other; every one reports all 40 requests.
      const served = (text: string) =>
        text
          .split("\n")
          .filter((l) => l.startsWith("kule_gateway_requests_total{") && l.includes(`tenant="${t.tenant.slug}"`))
          .reduce((n, l) => n + Number(l.split(" ").pop()), 0);
      for (let i = 0; i < 4; i++) {
        const scrape = await request(g.admin, "/metrics");
        expect(scrape.status).toBe(200);
        expect(served(scrape.body)).toBe(40);
      }
      await expect.poll(() => testDb().callLog.count({ where: { tenantId: t.tenant.id } }), { timeout: 10_000 }).toBe(40);
      // Each worker has its own spool directory, named for its slot.
      expect(fs.readdirSync(path.join(g.dataDir, "spool", `gateway-${new URL(g.base).port}`)).sort()).toEqual(["worker-0", "worker-1"]);

      // A worker that dies is replaced in its slot, and the pair serves on.
      const primary = g.child.pid!;
      const before = childrenOf(primary);
      expect(before).toHaveLength(2);
      process.kill(before[0]!, "SIGKILL");
      await expect.poll(() => childrenOf(primary).filter((pid) => !before.includes(pid)).length, { timeout: 15_000 }).toBe(1);
      expect(childrenOf(primary)).toHaveLength(2);
      const again = await Promise.all(Array.from({ length: 10 }, () => request(g.base, "/v1/chat/completions", { method: "POST", headers, body })));
      expect(again.map((a) => a.status)).toEqual(Array(10).fill(200));
    } finally {
      g.child.kill("SIGTERM");
      expect(await g.stopped()).toBe(0);
    }
  }, 60_000);

  /** The API connections each worker holds, as the gateway's /metrics says. */
  const connectionsByWorker = async (admin: string) => {
    const text = (await request(admin, "/metrics")).body;
    const of = (name: string, worker: string) => Number(new RegExp(`^${name}\\{worker="${worker}"\\} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
    return { connections: [of("kule_gateway_worker_connections", "0"), of("kule_gateway_worker_connections", "1")], busy: [of("kule_gateway_worker_event_loop_utilization", "0"), of("kule_gateway_worker_event_loop_utilization", "1")] };
  };

  /** Opens `n` keep-alive connections at once (one request each) and leaves them open; returns how to close them. */
  async function openConnections(base: string, n: number) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: n });
    const statuses = await Promise.all(
      Array.from({ length: n }, () => new Promise<number>((resolve, reject) => http.get(`${base}/healthz`, { agent }, (res) => (res.resume(), res.on("end", () => resolve(res.statusCode!)))).on("error", reject))),
    );
    expect(statuses).toEqual(Array(n).fill(200));
    return () => agent.destroy();
  }

  it("packs connections into the first worker while it has room (but for a trickle), and spreads them evenly with KULE_GATEWAY_PACK_BELOW=0", async () => {
    // Packed, the 16th connection goes to the other worker, which keeps it warm (placement.ts).
    for (const [packBelow, expected] of [[undefined, [19, 1]], ["0", [10, 10]]] as const) {
      const g = startGateway({ KULE_GATEWAY_WORKERS: "2", REDIS_URL: redisUrl, KULE_GATEWAY_PACK_BELOW: packBelow });
      try {
        await g.first;
        // Placement follows the workers' load: wait until both report an idle event loop after starting up.
        await expect.poll(async () => (await connectionsByWorker(g.admin)).busy.every((u) => u < 0.3), { timeout: 15_000 }).toBe(true);
        const close = await openConnections(g.base, 20);
        await expect.poll(async () => (await connectionsByWorker(g.admin)).connections, { timeout: 5_000 }).toEqual(expected);
        close();
      } finally {
        g.child.kill("SIGTERM");
        expect(await g.stopped()).toBe(0);
      }
    }
  }, 60_000);
});

describe("a busy worker letting connections go", () => {
  it("closes as many keep-alive connections as it is asked to after their answer, and keeps the rest", async () => {
    const gw = await startTestGateway();
    try {
      gw.gateway.shed = 2;
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const connection = () => new Promise<string | undefined>((resolve, reject) => http.get(`${gw.base}/healthz`, { agent }, (res) => (res.resume(), res.on("end", () => resolve(res.headers.connection)))).on("error", reject));
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await connection());
      expect(answers).toEqual(["close", "close", "keep-alive"]);
      expect(gw.gateway.shedTotal).toBe(2);
      agent.destroy();
    } finally {
      await gw.close();
    }
  });
});
