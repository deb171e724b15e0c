/**
 * A simulator process for the routing bench, with the latency model on: `BENCH_REPLICAS`
 * (comma-separated ids) LLM replicas, each on an H100 80 GB of its own, of a 30B-parameter model
 * in bf16 — the weights take 60 GB, leaving vLLM's KV cache about 35k tokens (2.2k blocks of 16),
 * so a replica caches a share of the workload's prefixes, not all of them, as in production.
 * They answer to `BENCH_SLUG` (default chat). Prints {"urls": {id: url}} once all are ready.
 */
import { SimCluster } from "../server/cluster/sim/cluster.ts";
import type { Topology } from "../server/cluster/driver.ts";

const GiB = 2 ** 30;
const ids = (process.env.BENCH_REPLICAS ?? "r0").split(",");
export const MODEL_30B_BF16 = { parameterCount: 30e9, weightBytes: 60e9 };

const topology: Topology = {
  cluster: "bench-routing",
  pools: [
    {
      name: "llm",
      region: "tr-ist",
      nodes: [
        {
          hostname: "llm-1",
          region: "tr-ist",
          status: "ready",
          cordoned: false,
          cpuModel: "2x AMD EPYC 9654",
          cpuCores: 192,
          memoryBytes: 1024 * GiB,
          gpus: ids.map((id, index) => ({ index, uuid: `GPU-${id}`, modelName: "NVIDIA H100 80GB HBM3", memoryBytes: 80 * GiB, migEnabled: false, migInstances: [], xid: 0 })),
        },
      ],
    },
  ],
};

const cluster = new SimCluster(topology, { storageBandwidth: 1e15, latencyScale: 1 });
for (const id of ids) {
  await cluster.startReplica({ id, endpointSlug: process.env.BENCH_SLUG ?? "chat", servedModelName: "bench-30b", versionId: "v1", versionLabel: "1.0", task: "llm", ...MODEL_30B_BF16, device: { kind: "gpu", gpuUuid: `GPU-${id}` } });
}
const urls: Record<string, string> = {};
for (const id of ids) urls[id] = (await cluster.awaitReady(id, 20_000)).url!;
console.log(JSON.stringify({ urls }));
process.on("SIGTERM", () => void cluster.shutdown().then(() => process.exit(0)));
