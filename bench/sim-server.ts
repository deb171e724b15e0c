/**
 * A simulator process for benchmarks: the small test cluster with the latency model off and
 * one LLM replica. Prints {"url": …} on stdout once the replica is ready.
 */
import { SimCluster } from "../server/cluster/sim/cluster.ts";
import { smallTopology, LLAMA_8B } from "../server/cluster/sim/fixtures.ts";

const cluster = new SimCluster(smallTopology(), { storageBandwidth: 1e15, latencyScale: Number(process.env.BENCH_LATENCY_SCALE ?? 0) });
await cluster.startReplica({
  id: "bench",
  endpointSlug: "chat",
  servedModelName: "llama-3.1-8b-instruct",
  versionId: "bench",
  versionLabel: "1.0",
  task: "llm",
  ...LLAMA_8B,
  device: { kind: "gpu", gpuUuid: "GPU-llm-1-0" },
});
const ready = await cluster.awaitReady("bench", 10_000);
console.log(JSON.stringify({ url: ready.url }));
process.on("SIGTERM", () => void cluster.shutdown().then(() => process.exit(0)));
