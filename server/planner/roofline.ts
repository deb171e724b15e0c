import { usableBytes } from "../shared/memory-rule.ts";
import { EFFICIENCY, type GpuSpec } from "./hardware.ts";

/**
 * The planner's engine model: a roofline per phase (Williams et al., "Roofline", CACM 2009, as
 * applied to transformer inference by Pope et al., MLSys 2023, and Kwon et al.'s vLLM paper):
 *
 *   prefill ms  = 2 × parameters × prompt tokens / (GPUs × peak FLOP/s × prefill MFU)   compute-bound
 *   decode step = (weights + KV read by the batch) / GPUs / (peak bytes/s × bandwidth share)
 *                 + all-reduces + step overhead + hops                                   memory-bound
 *   all-reduces = 2 per layer (Megatron-LM's split: after attention, after the MLP), each NCCL's
 *                 fixed latency + a ring's 2(TP − 1)/TP × tokens × hidden × 2 bytes over the link
 *   TPOT        = one decode step (every sequence in the batch gets a token per step)
 *   TTFT        = the step that prefills the prompt beside the running batch, before queueing
 *
 * Written apart from the simulator's engine (server/cluster/sim/latency-model.ts): the planner is
 * checked against what the simulator measures, which would prove nothing if they shared code.
 */
export interface Split {
  tensor: number;
  pipeline: number;
}

export interface Workload {
  parameterCount: number;
  /** Bytes of weights (the precision is in them). */
  weightBytes: number;
  /** Weights in FP8 run on FP8 tensor cores where the GPU has them. */
  fp8: boolean;
  kvBytesPerToken: number;
  /** Transformer layers: each all-reduces twice under tensor parallelism. */
  layers: number;
}

/** Without a model card, a Llama-like depth: 32 layers at 8B, growing with the cube root of size. */
export const layersOf = (parameterCount: number, known?: number | null) => known ?? Math.max(16, Math.round(32 * Math.cbrt(parameterCount / 8e9)));

/** A GPU kind as a replica sees it: whole, or one MIG instance (a share of its compute and bandwidth). */
export interface Device {
  spec: GpuSpec;
  computeShare: number;
  bandwidthShare: number;
}

export const wholeGpu = (spec: GpuSpec): Device => ({ spec, computeShare: 1, bandwidthShare: 1 });

const gpus = (p: Split) => p.tensor * p.pipeline;

/** KV-cache bytes each GPU of the split keeps beside its share of the weights (the memory rule's usable part). */
export function kvBytesPerGpu(w: Workload, deviceBytes: number, p: Split): number {
  return Math.max(0, usableBytes(deviceBytes) - w.weightBytes / gpus(p));
}

/** Whole sequences of `seqTokens` the split's KV cache holds at once: the largest batch memory allows. */
export function sequencesHeld(w: Workload, deviceBytes: number, p: Split, seqTokens: number): number {
  return Math.floor((gpus(p) * kvBytesPerGpu(w, deviceBytes, p)) / (w.kvBytesPerToken * seqTokens));
}

/** Peak FLOP/s the workload runs at on one device. */
function flops(w: Workload, d: Device): number {
  return (w.fp8 && d.spec.fp8Flops ? d.spec.fp8Flops : d.spec.bf16Flops) * d.computeShare;
}

/**
 * The tensor-parallel all-reduces of one pass over `tokens` tokens' activations, ms. The hidden
 * size comes from the parameters (Llama-like: ≈ 12 × layers × hidden²), the link from the GPU.
 */
function allReduceMs(w: Workload, d: Device, p: Split, tokens: number): number {
  if (p.tensor === 1) return 0;
  const hidden = Math.sqrt(w.parameterCount / (12 * w.layers));
  const bytes = ((2 * (p.tensor - 1)) / p.tensor) * tokens * hidden * 2;
  const latency = d.spec.nvlink ? EFFICIENCY.allReduceLatencyMs.nvlink : EFFICIENCY.allReduceLatencyMs.pcie;
  return 2 * w.layers * (latency + (bytes / d.spec.linkBytesPerS) * 1000);
}

/** Prefill of `promptTokens` (those the prefix cache does not hold), ms. */
export function prefillMs(w: Workload, d: Device, p: Split, promptTokens: number): number {
  const compute = (2 * w.parameterCount * promptTokens) / (gpus(p) * flops(w, d) * EFFICIENCY.prefillCompute);
  return compute * 1000 + allReduceMs(w, d, p, promptTokens) + (p.pipeline - 1) * EFFICIENCY.pipelineHopMs;
}

/** One decode step for `batch` sequences holding `contextTokens` each on average, ms: the TPOT. */
export function decodeStepMs(w: Workload, d: Device, p: Split, batch: number, contextTokens: number): number {
  return stepMs(w, d, p, batch, contextTokens, 0);
}

/**
 * The step that prefills a new prompt and yields its first token (vLLM's continuous batching
 * runs it with the sequences already decoding): the weights stream once for both, the prompt's
 * tokens add FLOPs and all-reduce bytes. A short prompt costs about a decode step; a long one is
 * compute-bound. The TTFT before queueing.
 */
export function firstTokenMs(w: Workload, d: Device, p: Split, promptTokens: number, batch: number, contextTokens: number): number {
  return stepMs(w, d, p, batch, contextTokens, promptTokens);
}

function stepMs(w: Workload, d: Device, p: Split, batch: number, contextTokens: number, promptTokens: number): number {
  const bytes = (w.weightBytes + batch * contextTokens * w.kvBytesPerToken) / gpus(p);
  const stream = bytes / (d.spec.memoryBytesPerS * d.bandwidthShare * EFFICIENCY.decodeBandwidth);
  // Memory-bound only while the step's FLOPs fit under the roofline's ridge.
  const compute = ((2 * w.parameterCount) / (gpus(p) * flops(w, d))) * (batch / EFFICIENCY.decodeCompute + promptTokens / EFFICIENCY.prefillCompute);
  return Math.max(stream, compute) * 1000 + allReduceMs(w, d, p, batch + promptTokens) + EFFICIENCY.stepOverheadMs + (p.pipeline - 1) * EFFICIENCY.pipelineHopMs;
}

/** Output tokens a replica produces per second at `batch`. */
export function decodeTokensPerS(w: Workload, d: Device, p: Split, batch: number, contextTokens: number): number {
  return (batch * 1000) / decodeStepMs(w, d, p, batch, contextTokens);
}

/** Average power of one GPU busy a share `utilization` of the time, W. */
export function gpuPowerW(spec: GpuSpec, utilization: number): number {
  return spec.idleW + (spec.maxW - spec.idleW) * Math.min(1, Math.max(0, utilization));
}
