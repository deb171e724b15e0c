import fs from "node:fs";
import type { Topology } from "../driver.ts";
import { referenceCluster, topologyOf, H100, L40S } from "./reference-cluster.ts";

/**
 * The topology the simulator plays, named by KULE_SIM_TOPOLOGY: `reference` (the demo's
 * reference cluster), `fleet-<nodes>` (that many 8-GPU nodes in pools of 25, for fleet-scale
 * tests and benchmarks), or the path of a JSON file holding a Topology.
 */
export function loadTopology(name: string): Topology {
  if (name === "reference") return referenceCluster();
  const fleet = /^fleet-(\d+)$/.exec(name);
  if (fleet) return fleetTopology(Number(fleet[1]));
  const parsed = JSON.parse(fs.readFileSync(name, "utf8")) as Topology;
  if (!parsed.cluster || !Array.isArray(parsed.pools)) throw new Error(`${name} is not a topology: it needs "cluster" and "pools"`);
  return parsed;
}

/** `nodes` nodes of 8 GPUs (H100 and L40S pools, one pool in five outside Turkey), 25 to a pool. */
export function fleetTopology(nodes: number): Topology {
  const pools = [];
  for (let i = 0, left = nodes; left > 0; i++, left -= 25) {
    const h100 = i % 2 === 0;
    const region = i % 5 === 4 ? "eu-fra" : i % 3 === 2 ? "tr-ank" : "tr-ist";
    pools.push({
      name: `${h100 ? "h100" : "l40s"}-${String(i + 1).padStart(2, "0")}`,
      region,
      hostPrefix: `fleet-${String(i + 1).padStart(2, "0")}`,
      nodeCount: Math.min(25, left),
      cpuModel: "2x AMD EPYC 9654",
      cpuCores: 192,
      memoryBytes: 1.5 * 1024 ** 4,
      gpusPerNode: 8,
      gpu: h100 ? H100 : L40S,
    });
  }
  return topologyOf(`kule-fleet-${nodes}`, pools);
}
