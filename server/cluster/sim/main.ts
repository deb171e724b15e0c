/**
 * `npm run sim`: the simulated GPU cluster as a process of its own. It plays the cluster seeded in
 * Kule's database and serves the control API on KULE_SIM_PORT (default 7400).
 */
import { env } from "../../env.ts";
import { resolveDatabaseUrl } from "../../db/url.ts";
import { createDb } from "../../db/client.ts";
import { SimCluster } from "./cluster.ts";
import { exporterVersions } from "../../metrics/exporters/versions.ts";
import { startControlServer } from "./control-server.ts";
import { topologyFromDb } from "./topology-from-db.ts";

async function main() {
  const database = await resolveDatabaseUrl();
  const db = createDb(database.url);
  const topology = await topologyFromDb(db, env.KULE_SIM_CLUSTER);
  await db.$disconnect();
  const exporters = exporterVersions(env.KULE_SIM_EXPORTERS, { vllm: env.KULE_SIM_VLLM_VERSION, dcgm: env.KULE_SIM_DCGM_EXPORTER_VERSION });
  const cluster = new SimCluster(topology, { storageBandwidth: env.KULE_SIM_STORAGE_BANDWIDTH, latencyScale: env.KULE_SIM_LATENCY_SCALE, exporters });
  const { url } = await startControlServer(cluster, env.KULE_SIM_PORT);
  const gpus = topology.pools.reduce((s, p) => s + p.nodes.reduce((t, n) => t + n.gpus.length, 0), 0);
  console.log(`Simulated cluster ${env.KULE_SIM_CLUSTER} (${gpus} GPUs) — control API on ${url}; metrics as vLLM ${exporters.vllm}, dcgm-exporter ${exporters.dcgm}, Triton ${exporters.triton}`);
  const stop = async () => {
    await cluster.shutdown();
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
