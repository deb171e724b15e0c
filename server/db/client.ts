import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.ts";
import { env } from "../env.ts";

export type Db = PrismaClient;
/** What a function that may run inside a transaction takes. */
export type DbTx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

// On globalThis: Next may bundle this module more than once, and every copy must know every client.
const urls = ((globalThis as unknown as { kuleDbUrls?: WeakMap<PrismaClient, string> }).kuleDbUrls ??= new WeakMap());

export function createDb(connectionString: string): PrismaClient {
  // Prisma's defaults (5 s a transaction, 2 s to start one) fail a change on a busy machine where
  // PostgreSQL shares the cores; a change is small, so waiting longer costs nothing when it is quiet.
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString }), transactionOptions: { maxWait: 10_000, timeout: 20_000 } });
  urls.set(client, connectionString);
  return client;
}

/** The URL a client was made for: what needs plain pg (COPY streams) connects to the same database. */
export function databaseUrlOf(client: PrismaClient): string {
  const url = urls.get(client);
  if (!url) throw new Error("This Prisma client was not made by createDb.");
  return url;
}

const globalForDb = globalThis as unknown as { kuleDb?: PrismaClient };

/**
 * The app's shared client. The URL is resolved before the server starts (scripts/demo.ts
 * exports the embedded database's URL as DATABASE_URL), so here it must be set.
 */
export function db(): PrismaClient {
  if (!globalForDb.kuleDb) {
    const url = env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start Kule with `npm run demo`, which provides the database.");
    globalForDb.kuleDb = createDb(url);
  }
  return globalForDb.kuleDb;
}
