import type { SimInventory } from "./inventory.ts";
import type { SimReplica } from "./replica.ts";

export interface SdTargetGroup {
  targets: string[];
  labels: Record<string, string>;
}

/** Prometheus http_sd: every node exporter and every replica that is up, with Kule's labels. */
export function serviceDiscovery(inventory: SimInventory, replicas: Iterable<SimReplica>, controlHostPort: string): SdTargetGroup[] {
  const targets: SdTargetGroup[] = [];
  for (const n of inventory.nodes.values()) {
    if (n.gpus.length === 0) continue;
    targets.push({ targets: [controlHostPort], labels: { job: "dcgm", __metrics_path__: `/dcgm/${n.hostname}/metrics`, kule_node: n.hostname, kule_pool: n.pool, kule_region: n.region } });
  }
  for (const r of replicas) {
    if (!r.port || (r.state !== "ready" && r.state !== "draining" && r.state !== "loading")) continue;
    targets.push({
      targets: [`${r.host}:${r.port}`],
      labels: {
        job: r.spec.task === "llm" ? "vllm" : "triton",
        kule_replica: r.spec.id,
        kule_endpoint: r.spec.endpointSlug,
        kule_version: r.spec.versionLabel,
        kule_version_id: r.spec.versionId,
        // The engine's --max-num-seqs, which Kule chose when it started the replica: vLLM does
        // not export it, and batch fill (running / maximum batch) needs it.
        kule_max_num_seqs: String(r.engine.params.maxBatch),
        kule_node: r.placement.hostname,
        kule_region: r.placement.region,
      },
    });
  }
  return targets;
}
