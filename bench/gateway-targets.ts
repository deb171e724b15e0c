/** The gateway bench's processes (HAProxy, `npm run gateway`), its event-loop reading and its ingest run (bench/gateway.ts). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, execFileSync } from "node:child_process";
import pg from "pg";
import { waitForHttp } from "../scripts/lib/proc.ts";
import type { CallLogRow } from "../server/gateway/call-log.ts";
import { CallLogThread } from "../server/gateway/call-log-thread.ts";

export async function startHaproxy(upstream: string, o: { noDelay?: boolean } = {}): Promise<{ url: string; pid: number; stop: () => void } | null> {
  try {
    execFileSync("haproxy", ["-v"], { stdio: "ignore" });
  } catch {
    console.log("haproxy is not installed (apt-get install -y haproxy): the HAProxy baseline is skipped.");
    return null;
  }
  const u = new URL(upstream);
  const port = 18000 + Math.floor(Math.random() * 1000);
  const cfgFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kule-haproxy-")), "haproxy.cfg");
  fs.writeFileSync(
    cfgFile,
    `global\n  maxconn 4096\ndefaults\n  mode http\n  timeout connect 2s\n  timeout client 30s\n  timeout server 30s\n  option http-keep-alive\n${o.noDelay ? "  option http-no-delay\n" : ""}frontend fe\n  bind 127.0.0.1:${port}\n  default_backend be\nbackend be\n  http-reuse always\n  server up ${u.hostname}:${u.port}\n`,
  );
  const child = spawn("haproxy", ["-f", cfgFile, "-db"], { stdio: "ignore" });
  await new Promise((r) => setTimeout(r, 500));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill("SIGTERM") };
}

/** `npm run gateway` (server/gateway/main.ts) on a free port, ready once /healthz answers. */
export async function startGateway(databaseUrl: string, extra: Record<string, string>) {
  const port = 19000 + 2 * Math.floor(Math.random() * 500);
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "server/gateway/main.ts"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, KULE_GATEWAY_PORT: String(port), KULE_GATEWAY_GRPC_PORT: String(port + 1), KULE_GATEWAY_SPOOL_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "kule-bench-spool-")), REDIS_URL: "", ...extra },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, 30_000);
  return { url, grpc: `127.0.0.1:${port + 1}`, admin: `http://127.0.0.1:${port + 1000}`, pid: child.pid!, stop: () => child.kill("SIGTERM") };
}

/** The gateway's event-loop delay p99 since the last read (reading resets it), ms. */
export async function loopDelayP99Ms(admin: string): Promise<number> {
  // Once more when the admin listener closed the kept-alive socket just as fetch reused it.
  const text = await fetch(`${admin}/metrics`)
    .catch(() => fetch(`${admin}/metrics`))
    .then((r) => r.text());
  const m = /^kule_gateway_event_loop_delay_seconds\{quantile="0\.99"\} ([\d.e+-]+)$/m.exec(text);
  return m ? +(Number(m[1]) * 1000).toFixed(2) : Number.NaN;
}

/** Rows pushed as fast as a loop can, through the gateway's own call-log path (its thread), until all are stored. */
export async function ingest(databaseUrl: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const writer = new CallLogThread({ databaseUrl, spoolDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-ingest-")) });
  const n = 200_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const now = Date.now();
    const row: CallLogRow = { requestId: `ingest-${i}`, tenantId: "t-bench", apiKeyId: "k-bench", endpointId: "e-bench", endpointVersionId: "ev-bench", replica: "r-bench", region: "tr-ist", clientIp: "127.0.0.1", startedAt: now, endedAt: now, ttftMs: 3, status: 200, errorClass: null, promptTokens: 5, completionTokens: 8 };
    writer.push(row);
    if (i % 5000 === 0) await new Promise((r) => setImmediate(r));
  }
  await writer.close();
  const seconds = (performance.now() - t0) / 1000;
  const stored = Number((await pool.query(`SELECT count(*) FROM "CallLog" WHERE "requestId" LIKE 'ingest-%'`)).rows[0].count);
  await pool.end();
  return { rowsPerSecond: Math.round(n / seconds), lost: n - stored };
}

