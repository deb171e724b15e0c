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
 * One fresh, migrated database for this run on DATABASE_URL's server (or the embedded one), and
 * a simulator playing the small test cluster, which Kule learns through the sim driver's discovery.
 */
export default async function setup(project: TestProject) {
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
