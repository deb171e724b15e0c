import type { SimInventory } from "./inventory.ts";
import type { SdTargetGroup } from "../../metrics/prometheus/discovery.ts";

/**
 * Prometheus http_sd for the simulated hardware: a dcgm-exporter per GPU node, as a GPU
 * Operator's ServiceMonitor would find them. Replicas are not listed here: Kule's own discovery
 * (/api/prometheus/sd) publishes every replica of every driver from its Replica table.
 */
export function serviceDiscovery(inventory: SimInventory, controlHostPort: string): SdTargetGroup[] {
  const targets: SdTargetGroup[] = [];
  for (const n of inventory.nodes.values()) {
    if (n.gpus.length === 0) continue;
    targets.push({ targets: [controlHostPort], labels: { job: "dcgm", __metrics_path__: `/dcgm/${n.hostname}/metrics`, kule_node: n.hostname, kule_pool: n.pool, kule_region: n.region } });
  }
  return targets;
}
