import type { TestProject } from "vitest/node";
import { resolveDatabaseUrl } from "../db/url.ts";
import { deployMigrations } from "../../scripts/migrate.ts";
import { createScratchDatabase, dropDatabase } from "../../scripts/lib/database.ts";
import { createDb } from "../db/client.ts";
import { SimCluster } from "../cluster/sim/cluster.ts";
import { startControlServer } from "../cluster/sim/control-server.ts";
import { smallTopology } from "../cluster/sim/fixtures.ts";
import { SimDriver } from "../cluster/sim-driver.ts";
import { ExternalDriver } from "../cluster/external-driver.ts";
import { discoverCluster } from "../cluster/sync.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    simUrl: string;
  }
}

/**
 * The integration projects set up side by side in one process, and Prisma's schema engine (a
 * WebAssembly instance shared by the process) panics when two migrations run in it at once: each
 * waits for the one before. On globalThis, since each project may load this module afresh.
 */
function oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
  const g = globalThis as { kuleMigrations?: Promise<unknown> };
  const next = (g.kuleMigrations ?? Promise.resolve()).then(fn, fn);
  g.kuleMigrations = next.catch(() => {});
  return next;
}

/**
 * One fresh, migrated database for this run on DATABASE_URL's server (or the embedded one), and
 * a simulator playing the small test cluster, which Kule learns through the sim driver's discovery.
 */
export default async function setup(project: TestProject) {
  const server = await resolveDatabaseUrl();
  const url = await createScratchDatabase(server.url, "kule_it");
  await oneAtATime(() => deployMigrations(url));
  const cluster = new SimCluster(smallTopology(), { storageBandwidth: 40e9, latencyScale: 0.05 });
  const sim = await startControlServer(cluster, 0);
  const db = createDb(url);
  const external = new ExternalDriver();
  await discoverCluster(db, { sim: new SimDriver(sim.url), external });
  external.close();
  await db.$disconnect();
  project.provide("databaseUrl", url);
  project.provide("simUrl", sim.url);
  return async () => {
    await cluster.shutdown();
    await new Promise((r) => sim.server.close(r));
    await dropDatabase(url);
    await server.stop();
  };
}
