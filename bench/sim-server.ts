/**
 * A simulator process for benchmarks: the small test cluster with the latency model off,
 * one LLM replica and one vision replica (Triton-like: KServe v2 over HTTP and gRPC). Prints
 * {"url", "visionUrl", "visionGrpc"} on stdout once both are ready.
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
await cluster.startReplica({
  id: "bench-vision",
  endpointSlug: "vision",
  servedModelName: "yolov8-detector",
  versionId: "bench-vision",
  versionLabel: "1.0",
  task: "vision",
  ...LLAMA_8B,
  parameterCount: 68e6,
  weightBytes: 136e6,
  device: { kind: "gpu", gpuUuid: "GPU-vis-1-0" },
});
const ready = await cluster.awaitReady("bench", 10_000);
const vision = await cluster.awaitReady("bench-vision", 10_000);
console.log(JSON.stringify({ url: ready.url, visionUrl: vision.url, visionGrpc: cluster.replica("bench-vision").grpcTarget }));
process.on("SIGTERM", () => void cluster.shutdown().then(() => process.exit(0)));
