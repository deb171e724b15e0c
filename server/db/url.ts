import { env } from "../env.ts";

/**
 * The database Kule uses: DATABASE_URL when set, else the embedded PostgreSQL under .data/
 * (started here when it is not running yet). `stop` stops only what this call started.
 */
export async function resolveDatabaseUrl(): Promise<{ url: string; embedded: boolean; stop: () => Promise<void> }> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, embedded: false, stop: async () => {} };
  const { startEmbeddedPostgres } = await import("./embedded.ts");
  const db = await startEmbeddedPostgres({ dataDir: env.KULE_DATA_DIR, port: env.KULE_EMBEDDED_PG_PORT });
  return { url: db.url, embedded: true, stop: db.stop };
}
