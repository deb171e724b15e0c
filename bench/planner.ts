/**
 * The capacity planner checked against reality twice (issue #34), written to
 * bench/results/planner.json:
 *
 * - published: the planner's roofline (server/planner/roofline.ts, throughput.ts) against
 *   TensorRT-LLM's published maximum-load throughput on H100/H200 (docs/source/performance/
 *   perf-overview.md, "Total Output Throughput", trtllm-bench, FP8 weights and KV cache), each
 *   case's error; the target is ±25% for every case.
 * - simulator: the planner's TPOT and TTFT against what the simulator measures for the demo's
 *   models at the same load (eight streams at once), its engine model being its own code
 *   (server/cluster/sim/latency-model.ts); the target is ±15%.
 */
import OpenAI from "openai";
import { SimCluster } from "../server/cluster/sim/cluster.ts";
import { referenceCluster } from "../server/cluster/sim/reference-cluster.ts";
import { gpuUuid } from "../server/cluster/gpu-uuid.ts";
import type { Device as ClusterDevice, ReplicaSpec } from "../server/cluster/driver.ts";
import { specFor } from "../server/planner/hardware.ts";
import { decodeStepMs, firstTokenMs, wholeGpu, type Workload } from "../server/planner/roofline.ts";
import { maxLoadThroughput } from "../server/planner/throughput.ts";
import { errorPct as livePct } from "../server/planner/live-check.ts";
import { kvBytesPerToken } from "../server/shared/memory-rule.ts";
import { writeResult } from "./lib.ts";

const SOURCE = "NVIDIA TensorRT-LLM docs/source/performance/perf-overview.md (Throughput Measurements, Total Output Throughput tokens/s, trtllm-bench, PyTorch backend)";
/** trtllm-bench's largest CUDA-graph batch in that page's llm_options; the KV cache is the tighter limit in every case below. */
const TRTLLM_BATCH_CAP = 8192;

const card = (params: number, layers: number, kvHeads: number, bytesPerParam: number, kvBytes: number): Workload => ({
  parameterCount: params,
  weightBytes: params * bytesPerParam,
  fp8: bytesPerParam === 1,
  kvBytesPerToken: (kvBytesPerToken(params, { layers, kvHeads, headDim: 128 }) / 2) * kvBytes,
  layers,
});
// Llama 3.1 8B (32 layers), Llama 3.3 70B (80), Llama 3.1 405B (126): 8 KV heads of 128; FP8 weights and FP8 KV cache.
const L8 = card(8.03e9, 32, 8, 1, 1);
const L70 = card(70.6e9, 80, 8, 1, 1);
const L405 = card(405.9e9, 126, 8, 1, 1);

const PUBLISHED: { name: string; w: Workload; gpu: string; tp: number; isl: number; osl: number; published: number }[] = [
  { name: "Llama 3.1 8B FP8, H100 TP 1, 1000/1000", w: L8, gpu: "H100", tp: 1, isl: 1000, osl: 1000, published: 15220 },
  { name: "Llama 3.1 8B FP8, H100 TP 1, 128/2048", w: L8, gpu: "H100", tp: 1, isl: 128, osl: 2048, published: 22714 },
  { name: "Llama 3.1 8B FP8, H100 TP 1, 2048/2048", w: L8, gpu: "H100", tp: 1, isl: 2048, osl: 2048, published: 9305 },
  { name: "Llama 3.1 8B FP8, H100 TP 1, 2048/128", w: L8, gpu: "H100", tp: 1, isl: 2048, osl: 128, published: 3450 },
  { name: "Llama 3.3 70B FP8, H100 TP 2, 1000/1000", w: L70, gpu: "H100", tp: 2, isl: 1000, osl: 1000, published: 4205 },
  { name: "Llama 3.3 70B FP8, H100 TP 2, 128/2048", w: L70, gpu: "H100", tp: 2, isl: 128, osl: 2048, published: 6651 },
  { name: "Llama 3.3 70B FP8, H200 TP 1, 1000/1000", w: L70, gpu: "H200", tp: 1, isl: 1000, osl: 1000, published: 2909 },
  { name: "Llama 3.1 405B FP8, H100 TP 8, 1000/1000", w: L405, gpu: "H100", tp: 8, isl: 1000, osl: 1000, published: 2919 },
  { name: "Llama 3.1 405B FP8, H100 TP 8, 128/2048", w: L405, gpu: "H100", tp: 8, isl: 128, osl: 2048, published: 4340 },
];

/** Every case here has a measurement, so a missing one reads as a miss (NaN is never within a band). */
const errorPct = (predicted: number, actual: number) => livePct(predicted, actual) ?? Number.NaN;

function published() {
  return PUBLISHED.map((c) => {
    const spec = specFor(c.gpu)!;
    const r = maxLoadThroughput(c.w, wholeGpu(spec), { tensor: c.tp, pipeline: 1 }, spec.memoryBytes, c.isl, c.osl, TRTLLM_BATCH_CAP);
    const predicted = Math.round(r.tokensPerS);
    return { name: c.name, source: SOURCE, unit: "output tokens/s", published: c.published, predicted, batch: r.batch, error_pct: errorPct(predicted, c.published) };
  });
}

const STREAMS = 8;
const ANSWER_TOKENS = 64;

/** A counter-like series of the replica's vLLM /metrics (the histogram's _sum or _count), summed over its labels. */
async function scrape(url: string, series: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split("\n")
    .filter((l) => l.startsWith(`${series}{`) || l.startsWith(`${series} `))
    .reduce((s, l) => s + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
}

/**
 * Eight streams at once against a simulated replica: the mean first token and the mean gap between
 * tokens, as the engine's own histograms (vllm:time_to_first_token_seconds and
 * vllm:inter_token_latency_seconds) saw them over the run, which is what Prometheus reads off a
 * real vLLM. The client's clock would add HTTP and the openai client's parsing on two shared cores.
 */
async function measure(url: string, model: string) {
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "sim" });
  const one = async () => {
    let prompt = 0;
    const stream = await client.chat.completions.create({ model, messages: [{ role: "user", content: "Kule'nin kapasite planlayıcısı için bir ölçüm: bu cümle yalnızca istemi biraz uzatmak için burada." }], max_tokens: ANSWER_TOKENS, stream: true, stream_options: { include_usage: true } });
    for await (const chunk of stream) if (chunk.usage) prompt = chunk.usage.prompt_tokens;
    return prompt;
  };
  await Promise.all(Array.from({ length: 2 }, one)); // warm-up
  const series = ["vllm:time_to_first_token_seconds_sum", "vllm:time_to_first_token_seconds_count", "vllm:inter_token_latency_seconds_sum", "vllm:inter_token_latency_seconds_count"];
  const before = await Promise.all(series.map((s) => scrape(url, s)));
  const prompts = await Promise.all(Array.from({ length: STREAMS }, one));
  const [ttftSum, ttftCount, itlSum, itlCount] = (await Promise.all(series.map((s) => scrape(url, s)))).map((v, i) => v - before[i]!);
  return { ttftMs: (ttftSum! / ttftCount!) * 1000, tpotMs: (itlSum! / itlCount!) * 1000, promptTokens: Math.round(prompts.reduce((s, p) => s + p, 0) / prompts.length) };
}

async function simulator() {
  const cluster = new SimCluster(referenceCluster(), { storageBandwidth: 1e12, latencyScale: 1 });
  const h100 = specFor("H100")!;
  // The demo's chat models (prisma/seed/catalog.ts): 8B in FP8 on one H100, 70B in bf16 over TP 4.
  const models: { name: string; spec: Omit<ReplicaSpec, "id" | "device">; device: ClusterDevice; w: Workload; tp: number }[] = [
    { name: "chat: Llama 3.1 8B FP8 on one H100", spec: { endpointSlug: "chat", servedModelName: "llama-3.1-8b-instruct", versionId: "v8", versionLabel: "1.0", task: "llm", parameterCount: 8.03e9, weightBytes: 8.03e9 }, device: { kind: "gpu", gpuUuid: gpuUuid("gpu-llm-01", 0) }, w: card(8.03e9, 32, 8, 1, 2), tp: 1 },
    { name: "chat-large: Llama 3.1 70B bf16 over H100 TP 4", spec: { endpointSlug: "chat-large", servedModelName: "llama-3.1-70b-instruct", versionId: "v70", versionLabel: "1.0", task: "llm", parameterCount: 70.6e9, weightBytes: 141.2e9, attention: { layers: 80, kvHeads: 8, headDim: 128 } }, device: { kind: "group", gpuUuids: [0, 1, 2, 3].map((i) => gpuUuid("gpu-llm-02", i)), tensorParallel: 4, pipelineParallel: 1 }, w: card(70.6e9, 80, 8, 2, 2), tp: 4 },
  ];
  const out = [];
  try {
    for (const m of models) {
      const id = m.spec.endpointSlug;
      await cluster.startReplica({ ...m.spec, id, device: m.device });
      const { url } = await cluster.awaitReady(id, 60_000);
      const got = await measure(url!, m.spec.servedModelName);
      const split = { tensor: m.tp, pipeline: 1 };
      const step = decodeStepMs(m.w, wholeGpu(h100), split, STREAMS, got.promptTokens + ANSWER_TOKENS / 2);
      const ttft = firstTokenMs(m.w, wholeGpu(h100), split, got.promptTokens, STREAMS, got.promptTokens + ANSWER_TOKENS / 2);
      out.push({ name: `${m.name}: TPOT at ${STREAMS} streams (ms)`, measured: Math.round(got.tpotMs * 10) / 10, predicted: Math.round(step * 10) / 10, error_pct: errorPct(step, got.tpotMs) });
      out.push({ name: `${m.name}: TTFT at ${STREAMS} streams, ${got.promptTokens}-token prompt (ms)`, measured: Math.round(got.ttftMs * 10) / 10, predicted: Math.round(ttft * 10) / 10, error_pct: errorPct(ttft, got.ttftMs) });
      await cluster.stopReplica(id);
    }
  } finally {
    await cluster.shutdown();
  }
  return out;
}

export async function benchPlanner() {
  const pub = published();
  const sim = await simulator();
  writeResult("planner", {
    published: pub,
    simulator: sim,
    published_within_25_pct: pub.filter((c) => Math.abs(c.error_pct) <= 25).length,
    simulator_within_15_pct: sim.filter((c) => Math.abs(c.error_pct) <= 15).length,
    note: "published: the roofline at maximum load (batch = what the KV cache holds beside the weights, FP8 KV), against TensorRT-LLM's published figures; simulator: the planner against the simulator's engine (server/cluster/sim/engine-physics.ts, written apart from the planner) at eight streams, as its own vLLM histograms measured them.",
  });
}
