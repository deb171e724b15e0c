import type { PrismaClient } from "../../server/db/generated/client.ts";
import { SimCluster } from "../../server/cluster/sim/cluster.ts";
import { startControlServer } from "../../server/cluster/sim/control-server.ts";
import { loadTopology } from "../../server/cluster/sim/topology-file.ts";
import { SimDriver } from "../../server/cluster/sim-driver.ts";
import { ExternalDriver } from "../../server/cluster/external-driver.ts";
import { discoverCluster } from "../../server/cluster/sync.ts";

/**
 * Learns a simulated cluster the way the app does, through the sim driver's discovery, for
 * scripts that seed before any simulator process runs (`npm run db:seed`, the e2e setup): a
 * simulator is started in this process for the time it takes, on a free port.
 */
export async function discoverSimulatedCluster(db: PrismaClient, topology = "reference"): Promise<void> {
  const cluster = new SimCluster(loadTopology(topology), { storageBandwidth: 1e12, latencyScale: 0 });
  const control = await startControlServer(cluster, 0);
  const external = new ExternalDriver();
  try {
    await discoverCluster(db, { sim: new SimDriver(control.url), external });
  } finally {
    external.close();
    await cluster.shutdown();
    await new Promise((r) => control.server.close(r));
  }
}
