/**
 * `npm run sim`: the simulated GPU cluster as a process of its own. It plays the topology named by
 * KULE_SIM_TOPOLOGY (the reference cluster by default) and serves the control API on
 * KULE_SIM_PORT (default 7400). It never opens Kule's database: Kule learns the cluster from it.
 */
import { env } from "../../env.ts";
import { SimCluster } from "./cluster.ts";
import { exporterVersions } from "../../metrics/exporters/versions.ts";
import { startControlServer } from "./control-server.ts";
import { loadTopology } from "./topology-file.ts";
import { serveKubernetes } from "../kubernetes/sim-bridge/serve-kubernetes.ts";

async function main() {
  const topology = loadTopology(env.KULE_SIM_TOPOLOGY);
  const exporters = exporterVersions(env.KULE_SIM_EXPORTERS, { vllm: env.KULE_SIM_VLLM_VERSION, dcgm: env.KULE_SIM_DCGM_EXPORTER_VERSION });
  const cluster = new SimCluster(topology, { storageBandwidth: env.KULE_SIM_STORAGE_BANDWIDTH, latencyScale: env.KULE_SIM_LATENCY_SCALE, exporters });
  const { url } = await startControlServer(cluster, env.KULE_SIM_PORT);
  const gpus = topology.pools.reduce((s, p) => s + p.nodes.reduce((t, n) => t + n.gpus.length, 0), 0);
  console.log(`Simulated cluster ${topology.cluster} (${gpus} GPUs) — control API on ${url}; metrics as vLLM ${exporters.vllm}, dcgm-exporter ${exporters.dcgm}, Triton ${exporters.triton}`);
  const kubernetes = env.KULE_SIM_KUBERNETES_PORT ? await serveKubernetes(cluster, env.KULE_SIM_KUBERNETES_PORT, env.KULE_SIM_KUBECONFIG) : null;
  const stop = async () => {
    await kubernetes?.stop();
    await cluster.shutdown();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
