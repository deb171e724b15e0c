/**
 * `npm run gateway`: the inference gateway as a stateless process of its own; run as many as
 * needed, each on its own port (KULE_GATEWAY_PORT) with its own spool directory. On one machine
 * it can also run as several worker processes sharing the port (KULE_GATEWAY_WORKERS, which
 * needs REDIS_URL so rate limits hold across them): the primary packs connections into the first
 * worker while it has room and spreads them over the cores once it has not (placement.ts).
 */
import cluster from "node:cluster";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { env } from "../env.ts";
import { resolveDatabaseUrl } from "../db/url.ts";
import { Gateway } from "./server.ts";
import { SharedLimiter } from "./shared-limits.ts";
import { GatewayTracing } from "./tracing.ts";
import { GenAiMetrics } from "./genai-metrics.ts";
import { otlpUrl } from "../telemetry/otlp-url.ts";
import { trustedProxiesOf } from "../http/client-ip.ts";
import { DEFAULT_PLACEMENT } from "./placement.ts";
import { callLogFlushMs, clusterMetricsText, joinSupervisor, superviseWorkers, workerCount } from "./workers.ts";

const limitsNote = () => (env.REDIS_URL ? "shared through Redis" : "per process");
const adminPort = () => env.KULE_GATEWAY_ADMIN_PORT ?? env.KULE_GATEWAY_PORT + 1000;
const adminNote = () => `metrics and service discovery on http://${env.KULE_GATEWAY_ADMIN_HOST}:${adminPort()}${env.KULE_GATEWAY_GRPC_PORT ? `; KServe v2 gRPC on ${env.KULE_GATEWAY_HOST}:${env.KULE_GATEWAY_GRPC_PORT}` : ""}`;

/** One gateway process: serves until SIGTERM/SIGINT, then drains its call log and exits. */
async function serve(databaseUrl: string, opts: { slot: number | null; workers: number; stopDatabase: () => Promise<void> }) {
  const worker = opts.slot !== null;
  // Short connect timeout: while the database is away, call-log batches go to the spool at once.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 8, connectionTimeoutMillis: 1000 });
  pool.on("error", () => {});
  const limiter = env.REDIS_URL ? await SharedLimiter.connect(env.REDIS_URL) : undefined;
  const spoolBase = env.KULE_GATEWAY_SPOOL_DIR ?? path.join(env.KULE_DATA_DIR, "spool", `gateway-${env.KULE_GATEWAY_PORT}`);
  const gateway = new Gateway({
    pool,
    databaseUrl,
    // A worker's spool is its slot's, so a worker started in a dead one's place replays its rows.
    spoolDir: opts.slot === null ? spoolBase : path.join(spoolBase, `worker-${opts.slot}`),
    maxBodyBytes: env.KULE_GATEWAY_MAX_BODY_BYTES,
    limiter,
    metricsText: opts.slot === null ? undefined : clusterMetricsText,
    trustedProxies: trustedProxiesOf(env.KULE_TRUSTED_PROXIES),
    tracing: otlpUrl("traces") ? GatewayTracing.create({ url: otlpUrl("traces"), serviceName: env.OTEL_SERVICE_NAME ?? "kule-gateway", sampleRatio: env.KULE_OTEL_SAMPLE_RATIO }) : undefined,
    genAi: otlpUrl("metrics") ? GenAiMetrics.create({ url: otlpUrl("metrics"), serviceName: env.OTEL_SERVICE_NAME ?? "kule-gateway", intervalMs: env.OTEL_METRIC_EXPORT_INTERVAL }) : undefined,
    grpcPort: env.KULE_GATEWAY_GRPC_PORT,
    callLogFlushMs: callLogFlushMs(opts.workers),
    processes: opts.workers,
    // How the key-version panel names this process: a worker serves the port its primary listens on.
    instance: `${os.hostname()}:${env.KULE_GATEWAY_PORT}:${process.pid}`,
  });
  // A worker's API connections come from the primary (workers.ts); it listens on the other ports itself.
  const url = await gateway.listen(worker ? null : env.KULE_GATEWAY_PORT, env.KULE_GATEWAY_HOST, {
    port: adminPort(),
    host: env.KULE_GATEWAY_ADMIN_HOST,
    token: env.KULE_METRICS_TOKEN ?? null,
  });
  exitOnSignal(async () => {
    await gateway.close();
    await limiter?.close();
    await pool.end();
    await opts.stopDatabase();
  });
  return { gateway, url };
}

/**
 * On the first SIGINT or SIGTERM, runs `stop` once and exits. Ctrl-C reaches the primary and every
 * worker at once, and the primary then asks the workers too: later signals are ignored.
 */
function exitOnSignal(stop: () => Promise<void>) {
  let stopping = false;
  const once = async () => {
    if (stopping) return;
    stopping = true;
    await stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void once());
  process.on("SIGTERM", () => void once());
}

async function main() {
  if (cluster.isWorker) {
    // The primary resolved the database and passed its URL on in DATABASE_URL.
    // A worker inherits the primary's environment, so it counts the workers as the primary did.
    const workers = workerCount(env.KULE_GATEWAY_WORKERS, !!env.REDIS_URL);
    const slot = env.KULE_GATEWAY_WORKER_SLOT ?? 0;
    const { gateway } = await serve(env.DATABASE_URL!, { slot, workers, stopDatabase: async () => {} });
    joinSupervisor(gateway, slot);
    return;
  }
  const workers = workerCount(env.KULE_GATEWAY_WORKERS, !!env.REDIS_URL);
  const database = await resolveDatabaseUrl();
  if (workers === 1) {
    const { url } = await serve(database.url, { slot: null, workers, stopDatabase: database.stop });
    console.log(`Gateway on ${url} (limits ${limitsNote()}; ${adminNote()})`);
    return;
  }
  // The workers connect to the database resolved here (an embedded one is started once, here).
  const policy = { ...DEFAULT_PLACEMENT, packBelow: env.KULE_GATEWAY_PACK_BELOW };
  const supervisor = superviseWorkers(workers, { DATABASE_URL: database.url }, { port: env.KULE_GATEWAY_PORT, host: env.KULE_GATEWAY_HOST, policy });
  void supervisor.failed.then(async (why) => {
    console.error(why);
    await supervisor.stop();
    await database.stop();
    process.exit(1);
  });
  const url = await supervisor.listening;
  console.log(`Gateway on ${url}: ${workers} worker processes (limits ${limitsNote()}; ${adminNote()})`);
  exitOnSignal(async () => {
    await supervisor.stop();
    await database.stop();
  });
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
