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
 * One setup per process. Prisma's schema engine keeps its WebAssembly instance in a module-level
 * variable: a second migration in the process (both integration projects in one vitest) made a
 * second instance under the first one's objects, and it panicked; sharing one instance instead
 * seeded the history test's database wrong. `npm test` runs each project in a vitest of its own.
 */
function onlySetupInThisProcess(project: string) {
  const g = globalThis as { kuleSetupProject?: string };
  if (g.kuleSetupProject) {
    throw new Error(`The integration projects ${g.kuleSetupProject} and ${project} cannot share one vitest process (Prisma's schema engine is one per process): run \`npm test -- integration\`, or one project at a time with --project.`);
  }
  g.kuleSetupProject = project;
}

/**
 * One fresh, migrated database for this run on DATABASE_URL's server (or the embedded one), and
 * a simulator playing the small test cluster, which Kule learns through the sim driver's discovery.
 */
export default async function setup(project: TestProject) {
  onlySetupInThisProcess(project.name);
  const server = await resolveDatabaseUrl();
  const url = await createScratchDatabase(server.url, "kule_it");
  await deployMigrations(url);
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
