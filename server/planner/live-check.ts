import type { PrismaClient } from "../db/generated/client.ts";
import { NotFoundError } from "../errors.ts";
import type { PrometheusClient, PromVector } from "../metrics/prometheus-client.ts";
import { isMetricsUnavailable } from "../metrics/prometheus-client.ts";
import { endpointQueries, liveLoadQueries } from "../metrics/promql.ts";
import { specFor } from "./hardware.ts";
import { decodeStepMs, firstTokenMs, prefillMs, wholeGpu, type Workload } from "./roofline.ts";
import { P99_OVER_MEAN, ttftP99Ms } from "./plan.ts";
import { versionMemory, workloadOf } from "./planner.ts";

/** Five minutes: long enough for a p99 of a light load, short enough to follow a change. */
const WINDOW = "5m";

export interface LiveLoad {
  requestsPerS: number;
  promptTokens: number;
  answerTokens: number;
  /** Mean sequences a replica runs at once. */
  batch: number;
  replicas: number;
}

export interface Measured {
  ttftP99Ms: number | null;
  tpotP99Ms: number | null;
  outputTokensPerS: number;
}

/** A prediction's error against what was measured, in percent to one decimal; null when nothing was measured. */
export const errorPct = (predicted: number, measured: number | null) => (measured ? Math.round((predicted / measured - 1) * 1000) / 10 : null);

/**
 * What the planner predicts for the load an endpoint carries now, beside what Prometheus measured
 * for it: TTFT and TPOT p99 and output tokens/s per replica, each with the error. Pure: the
 * endpoint page's check, and its unit test.
 */
export function compareLive(w: Workload, gpu: NonNullable<ReturnType<typeof specFor>>, split: { tensor: number; pipeline: number }, load: LiveLoad, measured: Measured) {
  const device = wholeGpu(gpu);
  const batch = Math.max(1, load.batch);
  const step = decodeStepMs(w, device, split, batch, load.promptTokens + load.answerTokens / 2);
  const first = firstTokenMs(w, device, split, load.promptTokens, batch, load.promptTokens + load.answerTokens / 2);
  const ttft = ttftP99Ms(first, prefillMs(w, device, split, load.promptTokens), load.requestsPerS / Math.max(1, load.replicas));
  const tpot = step * P99_OVER_MEAN.tpot;
  const tokens = (batch * 1000) / step;
  const perReplica = measured.outputTokensPerS / Math.max(1, load.replicas);
  return [
    { metric: "ttftP99Ms" as const, predicted: ttft, measured: measured.ttftP99Ms, errorPct: errorPct(ttft, measured.ttftP99Ms) },
    { metric: "tpotP99Ms" as const, predicted: tpot, measured: measured.tpotP99Ms, errorPct: errorPct(tpot, measured.tpotP99Ms) },
    // At a light load a replica makes only what it is asked for: its ceiling at this batch is the prediction.
    { metric: "tokensPerSPerReplica" as const, predicted: tokens, measured: perReplica, errorPct: errorPct(tokens, perReplica) },
  ];
}

const scalar = (v: PromVector) => {
  const x = Number(v[0]?.value[1]);
  return Number.isFinite(x) ? x : null;
};

/** The endpoint's most-weighted serving version, its GPUs and split, its live load: predicted against measured. */
export async function predictedVsMeasured({ db, prometheus }: { db: PrismaClient; prometheus: PrometheusClient }, { endpointId }: { endpointId: string }) {
  const endpoint = await db.endpoint.findUnique({
    where: { id: endpointId },
    select: {
      slug: true,
      model: { select: { task: true } },
      versions: { where: { weight: { gt: 0 } }, orderBy: { weight: "desc" }, take: 1, select: { modelVersion: true, replicas: { where: { state: "ready" }, select: { tensorParallel: true, pipelineParallel: true, gpuModel: true, gpu: { select: { modelName: true } } } } } },
    },
  });
  if (!endpoint) throw new NotFoundError("Endpoint");
  const v = endpoint.versions[0];
  if (endpoint.model.task !== "llm") return { available: false as const, why: "not_llm" as const };
  if (!v || v.replicas.length === 0) return { available: false as const, why: "no_replicas" as const };
  const r = v.replicas[0]!;
  const gpu = specFor(r.gpu?.modelName ?? r.gpuModel ?? "");
  if (!gpu) return { available: false as const, why: "unknown_gpu" as const, gpu: r.gpu?.modelName ?? r.gpuModel ?? null };
  const split = { tensor: r.tensorParallel, pipeline: r.pipelineParallel };
  const q = async (query: string) => scalar(await prometheus.query(query));
  try {
    const [rps, tokens, batch, ttft, tpot] = await Promise.all([
      q(liveLoadQueries.requests(endpoint.slug, WINDOW)),
      prometheus.query(endpointQueries.tokens(endpoint.slug, WINDOW)),
      q(liveLoadQueries.batch(endpoint.slug)),
      q(endpointQueries.ttft(endpoint.slug, 0.99, WINDOW)),
      q(endpointQueries.tpot(endpoint.slug, 0.99, WINDOW)),
    ]);
    if (!rps) return { available: false as const, why: "no_traffic" as const };
    const byKind = (kind: string) => Number(tokens.find((s) => s.metric.kind === kind)?.value[1] ?? 0);
    const load: LiveLoad = { requestsPerS: rps, promptTokens: byKind("input") / rps, answerTokens: byKind("output") / rps, batch: batch ?? 1, replicas: v.replicas.length };
    const measured: Measured = { ttftP99Ms: ttft === null ? null : ttft * 1000, tpotP99Ms: tpot === null ? null : tpot * 1000, outputTokensPerS: byKind("output") };
    const w = workloadOf(versionMemory(v.modelVersion), v.modelVersion.precision === "fp8");
    return { available: true as const, version: v.modelVersion.version, gpu: gpu.name, split, window: WINDOW, load, rows: compareLive(w, gpu, split, load, measured) };
  } catch (e) {
    if (isMetricsUnavailable(e)) return { available: false as const, why: "metrics" as const, reason: e.why };
    throw e;
  }
}
