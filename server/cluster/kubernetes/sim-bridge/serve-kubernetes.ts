import fs from "node:fs";
import path from "node:path";
import type { SimCluster } from "../../sim/cluster.ts";
import { startSimulatedKubernetes } from "./simulated-kubernetes.ts";

/**
 * The simulator's process also serving the Kubernetes API stand-in (`npm run demo -- --cluster
 * kubernetes`): the kubeconfig is written to `kubeconfigPath`, for Kule's driver to read.
 */
export async function serveKubernetes(cluster: SimCluster, port: number, kubeconfigPath = ".data/stand-in.kubeconfig") {
  const standIn = await startSimulatedKubernetes(cluster, { port });
  fs.mkdirSync(path.dirname(path.resolve(kubeconfigPath)), { recursive: true });
  fs.writeFileSync(kubeconfigPath, standIn.kubeconfigYaml, { mode: 0o600 });
  console.log(`Kubernetes API stand-in on ${standIn.url} (kubeconfig: ${kubeconfigPath}); its kubelets and MIG manager are this simulator's.`);
  return {
    url: standIn.url,
    async stop() {
      standIn.stopFollowing();
      await standIn.stop();
    },
  };
}
