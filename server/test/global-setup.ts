import type { TestProject } from "vitest/node";
import { resolveDatabaseUrl } from "../db/url.ts";
import { deployMigrations } from "../../scripts/migrate.ts";
import { createScratchDatabase, dropDatabase } from "../../scripts/lib/database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/** One fresh, migrated database for this run on DATABASE_URL's server (or the embedded one). */
export default async function setup(project: TestProject) {
  const server = await resolveDatabaseUrl();
  const url = await createScratchDatabase(server.url, "kule_it");
  await deployMigrations(url);
  project.provide("databaseUrl", url);
  return async () => {
    await dropDatabase(url);
    await server.stop();
  };
}
