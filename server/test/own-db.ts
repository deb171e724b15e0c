import pg from "pg";
import { inject } from "vitest";
import { createScratchDatabase, dropDatabase } from "../../scripts/lib/database.ts";
import { deployMigrations } from "../../scripts/migrate.ts";
import { createDb } from "../db/client.ts";
import { endPgPool } from "../db/pg-pool.ts";
import { createCaller } from "../routers/root.ts";
import type { Actor } from "../auth/actor.ts";
import { PrometheusClient } from "../metrics/prometheus-client.ts";
import { testDrivers } from "./harness.ts";

/**
 * A migrated database of the test file's own. Sealing and checking cover a whole log, so tests
 * that seal, tamper with rows or destroy them must not share the run's database with files
 * running beside them.
 */
export async function ownDatabase(prefix: string) {
  const url = await createScratchDatabase(inject("databaseUrl"), prefix);
  await deployMigrations(url);
  const db = createDb(url);
  const pool = new pg.Pool({ connectionString: url, max: 4, options: "-c TimeZone=UTC" });
  // An idle client the server drops (a loaded CI machine, the forced drop below racing a late
  // release) must not become an unhandled 'error' event that fails the whole run.
  pool.on("error", () => {});
  return {
    url,
    db,
    pool,
    caller: (actor: Actor | null) => createCaller({ db, actor, ip: "127.0.0.1", drivers: testDrivers(), prometheus: new PrometheusClient(null) }),
    async close() {
      await endPgPool(db);
      await db.$disconnect();
      await pool.end();
      await dropDatabase(url);
    },
  };
}
