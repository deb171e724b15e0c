import pg from "pg";
import { databaseUrlOf, type Db } from "./client.ts";

const g = globalThis as unknown as { kulePgPools?: Map<string, pg.Pool> };

/**
 * A plain pg pool beside a Prisma client, on the same database: for what Prisma cannot do, COPY
 * … TO STDOUT streams and server-side cursors. Sessions run in UTC so timestamp columns (stored
 * as UTC without a zone) convert the same way everywhere.
 */
export function pgPool(db: Db): pg.Pool {
  const url = databaseUrlOf(db);
  g.kulePgPools ??= new Map();
  let pool = g.kulePgPools.get(url);
  if (!pool) {
    pool = new pg.Pool({ connectionString: url, max: 6, options: "-c TimeZone=UTC" });
    pool.on("error", () => {}); // an idle client dropped by the server: the next query reconnects
    g.kulePgPools.set(url, pool);
  }
  return pool;
}

/** Ends the pool for a database (tests that drop their own database). */
export async function endPgPool(db: Db) {
  const url = databaseUrlOf(db);
  const pool = g.kulePgPools?.get(url);
  g.kulePgPools?.delete(url);
  await pool?.end();
}
