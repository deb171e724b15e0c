/**
 * `npm run gateway`: the inference gateway as a stateless process of its own; run as many as
 * needed, each on its own port (KULE_GATEWAY_PORT) with its own spool directory.
 */
import path from "node:path";
import pg from "pg";
import { env } from "../env.ts";
import { resolveDatabaseUrl } from "../db/url.ts";
import { Gateway } from "./server.ts";
import { RedisLimiter } from "./redis-limits.ts";

async function main() {
  const database = await resolveDatabaseUrl();
  // Short connect timeout: while the database is away, call-log batches go to the spool at once.
  const pool = new pg.Pool({ connectionString: database.url, max: 8, connectionTimeoutMillis: 1000 });
  pool.on("error", () => {});
  const limiter = env.REDIS_URL ? await RedisLimiter.connect(env.REDIS_URL) : undefined;
  const gateway = new Gateway({
    pool,
    databaseUrl: database.url,
    spoolDir: env.KULE_GATEWAY_SPOOL_DIR ?? path.join(env.KULE_DATA_DIR, "spool", `gateway-${env.KULE_GATEWAY_PORT}`),
    maxBodyBytes: env.KULE_GATEWAY_MAX_BODY_BYTES,
    limiter,
  });
  const url = await gateway.listen(env.KULE_GATEWAY_PORT);
  console.log(`Gateway on ${url} (limits ${limiter ? "shared through Redis" : "per process"})`);
  const stop = async () => {
    await gateway.close();
    await limiter?.close();
    await pool.end();
    await database.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
