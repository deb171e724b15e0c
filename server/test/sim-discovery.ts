import http from "node:http";
import type { AddressInfo } from "node:net";
import type { SimCluster } from "../cluster/sim/cluster.ts";
import { replicaTargetGroups } from "../metrics/prometheus/discovery.ts";

/**
 * Kule's replica discovery for a simulator without the app: the same http_sd groups the app
 * publishes from its Replica table, built from the simulator's ready and draining replicas.
 */
export async function serveSimReplicaDiscovery(cluster: SimCluster): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    const live = [...cluster.replicas.values()].filter((r) => (r.state === "ready" || r.state === "draining") && r.metricsUrl);
    const groups = replicaTargetGroups(
      live.map((r) => ({
        id: r.spec.id,
        endpointSlug: r.spec.endpointSlug,
        versionLabel: r.spec.versionLabel,
        versionId: r.spec.versionId,
        engine: r.spec.task === "llm" ? "vllm" : "triton",
        driver: "sim",
        region: r.placement.region,
        metricsUrl: r.metricsUrl!,
        maxNumSeqs: r.status().maxNumSeqs ?? null,
        node: r.placement.hostname,
      })),
    );
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(groups));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sd`, close: () => new Promise((r) => server.close(() => r())) };
}
