import { fitsDevice, gib, memoryNeed, parallelismText, usableBytes, type ModelMemory } from "../shared/memory-rule.ts";
import { candidateSplits } from "../shared/parallelism.ts";
import { migComputeSlices, migInstanceMemoryBytes, migProfiles, supportsMig } from "../cluster/mig.ts";
import { decodeStepMs, firstTokenMs, gpuPowerW, kvBytesPerGpu, prefillMs, sequencesHeld, wholeGpu, type Device, type Split, type Workload } from "./roofline.ts";
import type { GpuSpec } from "./hardware.ts";

/**
 * Sizing one candidate (a GPU kind × split, or a MIG profile) for a forecast: what each GPU holds,
 * the batch the KV cache and the TPOT budget allow, the replicas the load needs (Little's law:
 * calls in flight = arrivals × time each spends), one more for a failure, the day's GPU-hours
 * following the forecast against a fleet fixed at the peak, energy and cost per 1M tokens.
 */
export interface Fleet {
  spec: GpuSpec;
  /** As the fleet names it (the key of its hardware rate). */
  modelName: string;
  gpusPerNode: number;
  nodes: number;
  /** Price of one GPU-hour, from the hardware rates; null: no rate set. */
  perHour: number | null;
}

export interface Forecast {
  peakRps: number;
  hourly: number[];
  promptTokens: number;
  answerTokens: number;
  prefixShare: number;
}

export interface Slo {
  ttftP99Ms: number;
  tpotP99Ms: number;
}

/** A p99 over a mean: batches and prompts vary call to call (named, not hidden). */
export const P99_OVER_MEAN = { tpot: 1.2, ttft: 2 } as const;
/** vLLM's default --max-num-seqs: no engine batches more sequences than this. */
export const MAX_BATCH = 256;

/**
 * TTFT p99 of a replica taking `rpsPerReplica` calls a second: the step that prefills the prompt
 * and yields its first token, the wait stretched by the share of the replica's time spent
 * prefilling (prefills queue for the GPU, M/D/1-like).
 */
export function ttftP99Ms(firstTokenMs: number, prefillMs: number, rpsPerReplica: number): number {
  const busy = Math.min(0.95, (rpsPerReplica * prefillMs) / 1000);
  return firstTokenMs * (1 + busy / (2 * (1 - busy))) * P99_OVER_MEAN.ttft;
}

export interface Candidate {
  gpu: string;
  device: string;
  split: Split;
  gpusPerReplica: number;
  refused: string | null;
  /** What each GPU must hold by the memory rule (weights and one full sequence). */
  needBytesPerGpu: number;
  weightBytesPerGpu: number;
  kvBytesPerGpu: number;
  overheadBytesPerGpu: number;
  /** Full sequences (prompt + answer) the KV cache holds at once, per replica. */
  kvSequences: number;
  batch: number;
  prefillMs: number;
  ttftP99Ms: number;
  tpotP99Ms: number;
  inFlightAtPeak: number;
  tokensPerSPerReplica: number;
  replicas: number;
  gpus: number;
  gpuHoursPerDay: { autoscaled: number; fixed: number };
  kwhPerDay: number;
  costPerDay: number | null;
  costPer1MTokens: number | null;
  costPer1MTokensFixed: number | null;
}

type Memory = ModelMemory & { attention: NonNullable<ModelMemory["attention"]> | null };

function evaluate(m: Memory, w: Workload, fleet: Fleet, device: Device, deviceBytes: number, deviceLabel: string, split: Split, share: number, f: Forecast, slo: Slo, energy: { pricePerKwh: number; pue: number }): Candidate {
  const n = split.tensor * split.pipeline;
  const seq = f.promptTokens + f.answerTokens;
  // Room for one full sequence at least: what the engine needs to start.
  const need = memoryNeed({ ...m, kvTokens: seq }, split);
  const weightBytesPerGpu = w.weightBytes / n;
  const base = { gpu: fleet.modelName, device: deviceLabel, split, gpusPerReplica: n, needBytesPerGpu: need.bytes, weightBytesPerGpu, kvBytesPerGpu: kvBytesPerGpu(w, deviceBytes, split), overheadBytesPerGpu: deviceBytes - usableBytes(deviceBytes) };
  const empty = { kvSequences: 0, batch: 0, prefillMs: 0, ttftP99Ms: 0, tpotP99Ms: 0, inFlightAtPeak: 0, tokensPerSPerReplica: 0, replicas: 0, gpus: 0, gpuHoursPerDay: { autoscaled: 0, fixed: 0 }, kwhPerDay: 0, costPerDay: null, costPer1MTokens: null, costPer1MTokensFixed: null };
  if (!fitsDevice(deviceBytes, need.bytes)) return { ...base, ...empty, refused: `${gib(need.bytes)} per GPU (weights and one sequence of ${seq} tokens) is more than the ${gib(usableBytes(deviceBytes))} usable of a ${deviceLabel}` };
  const kvSequences = sequencesHeld(w, deviceBytes, split, seq);
  const context = f.promptTokens + f.answerTokens / 2;
  const uncached = Math.max(1, Math.round(f.promptTokens * (1 - f.prefixShare)));
  const pre = prefillMs(w, device, split, uncached);
  // The largest batch the KV cache holds whose step keeps the TPOT budget at p99.
  let batch = Math.min(kvSequences, MAX_BATCH);
  while (batch > 0 && decodeStepMs(w, device, split, batch, context) * P99_OVER_MEAN.tpot > slo.tpotP99Ms) batch--;
  const step1 = decodeStepMs(w, device, split, 1, context);
  if (batch === 0) return { ...base, ...empty, kvSequences, prefillMs: pre, tpotP99Ms: step1 * P99_OVER_MEAN.tpot, refused: kvSequences === 0 ? `the KV cache holds no sequence of ${seq} tokens beside the weights` : `a decode step takes ${step1.toFixed(1)} ms even for one sequence; TPOT p99 would be ${(step1 * P99_OVER_MEAN.tpot).toFixed(1)} ms against ${slo.tpotP99Ms} ms` };
  const step = decodeStepMs(w, device, split, batch, context);
  const first = firstTokenMs(w, device, split, uncached, batch, context);
  const ttftAt = (replicas: number, rps: number) => ttftP99Ms(first, pre, rps / replicas);
  if (ttftAt(1e9, 0) > slo.ttftP99Ms) return { ...base, ...empty, kvSequences, batch, prefillMs: pre, ttftP99Ms: ttftAt(1e9, 0), tpotP99Ms: step * P99_OVER_MEAN.tpot, refused: `prefill of ${f.promptTokens} tokens takes ${pre.toFixed(0)} ms; TTFT p99 would be ${ttftAt(1e9, 0).toFixed(0)} ms against ${slo.ttftP99Ms} ms` };
  // Calls in flight = arrivals × time in the system (Little); the batch each replica runs is its share
  // of them, and the step time follows the batch: a few rounds settle both.
  const replicasFor = (rps: number) => {
    let r = 1;
    let at = step;
    let inFlight = 0;
    for (let round = 0; round < 4; round++) {
      inFlight = (rps * (ttftAt(1e9, 0) / P99_OVER_MEAN.ttft + f.answerTokens * at)) / 1000;
      r = Math.max(1, Math.ceil(inFlight / batch));
      at = decodeStepMs(w, device, split, Math.max(1, Math.min(batch, inFlight / r)), context);
    }
    while (ttftAt(r, rps) > slo.ttftP99Ms && r < 10_000) r++;
    return { r, inFlight, step: at };
  };
  const peak = replicasFor(f.peakRps);
  // One replica more than the load needs: a failure (an XID, a node) must not breach the SLO.
  const hours = f.hourly.map((s) => replicasFor(f.peakRps * s));
  const autoscaledReplicaHours = hours.reduce((sum, h) => sum + h.r + 1, 0);
  const gpuHoursAutoscaled = autoscaledReplicaHours * n * share;
  const gpuHoursFixed = (peak.r + 1) * 24 * n * share;
  // Each GPU (a MIG instance: its share of one) draws between idle and full power as its batch fills.
  const kwh = (replicas: number, inFlight: number, hoursRun: number) => (replicas * n * share * gpuPowerW(fleet.spec, inFlight / replicas / batch) * hoursRun * energy.pue) / 1000;
  const kwhPerDay = hours.reduce((sum, h) => sum + kwh(h.r + 1, h.inFlight, 1), 0);
  const tokensPerDay = f.hourly.reduce((sum, s) => sum + f.peakRps * s * 3600 * seq, 0);
  const cost = (gpuHours: number, kwh: number) => (fleet.perHour === null ? null : gpuHours * fleet.perHour + kwh * energy.pricePerKwh);
  const costPerDay = cost(gpuHoursAutoscaled, kwhPerDay);
  const fixedKwh = hours.reduce((sum, h) => sum + kwh(peak.r + 1, h.inFlight, 1), 0);
  const per1M = (c: number | null) => (c === null || tokensPerDay === 0 ? null : (c / tokensPerDay) * 1e6);
  return {
    ...base,
    refused: null,
    kvSequences,
    batch,
    prefillMs: pre,
    ttftP99Ms: ttftAt(peak.r, f.peakRps),
    tpotP99Ms: peak.step * P99_OVER_MEAN.tpot,
    inFlightAtPeak: peak.inFlight,
    tokensPerSPerReplica: (batch * 1000) / step,
    replicas: peak.r + 1,
    gpus: (peak.r + 1) * n,
    gpuHoursPerDay: { autoscaled: gpuHoursAutoscaled, fixed: gpuHoursFixed },
    kwhPerDay,
    costPerDay,
    costPer1MTokens: per1M(costPerDay),
    costPer1MTokensFixed: per1M(cost(gpuHoursFixed, fixedKwh)),
  };
}

/**
 * Every candidate on every GPU kind of the fleet, ranked: those that meet the SLOs first, the
 * cheapest per 1M tokens first (unpriced after priced), then the fewest GPUs; refusals last, each
 * saying which limit it hits.
 */
export function planCandidates(m: Memory, w: Workload, fleets: Fleet[], f: Forecast, slo: Slo, energy: { pricePerKwh: number; pue: number }): Candidate[] {
  const out: Candidate[] = [];
  for (const fleet of fleets) {
    for (const split of candidateSplits({ ...fleet, memoryBytes: fleet.spec.memoryBytes })) {
      out.push(evaluate(m, w, fleet, wholeGpu(fleet.spec), fleet.spec.memoryBytes, split.pipeline > 1 || split.tensor > 1 ? `${fleet.spec.name} × ${split.tensor * split.pipeline} (${parallelismText(split)})` : fleet.spec.name, split, 1, f, slo, energy));
    }
    // Small models: one MIG instance a replica, costed as its share of the GPU (cost.ts's rule: compute slices out of 7).
    if (supportsMig(fleet.modelName)) {
      for (const p of migProfiles(fleet.spec.memoryBytes / 2 ** 30)) {
        if (p.compute === 7 || out.some((c) => c.gpu === fleet.modelName && c.device === `${fleet.spec.name} MIG ${p.name}`)) continue;
        const share = migComputeSlices(p.name) / 7;
        const device: Device = { spec: fleet.spec, computeShare: share, bandwidthShare: p.memorySlots / 8 };
        const c = evaluate(m, w, fleet, device, migInstanceMemoryBytes(fleet.spec.memoryBytes, p.name), `${fleet.spec.name} MIG ${p.name}`, { tensor: 1, pipeline: 1 }, share, f, slo, energy);
        if (!c.refused) out.push(c);
      }
    }
  }
  const rank = (c: Candidate) => [c.refused ? 1 : 0, c.costPer1MTokens === null ? 1 : 0, c.costPer1MTokens ?? 0, c.gpus] as const;
  return out.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    return 0;
  });
}
