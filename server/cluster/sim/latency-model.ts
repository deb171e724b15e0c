/**
 * How long a continuous-batching engine (vLLM-like) takes, as pure functions of its load. A
 * replica runs up to `maxBatch` sequences at once; further requests wait in a queue.
 *
 *   TTFT  = prefill: base + promptTokens × perPromptToken, slowed by the sequences already decoding
 *   TPOT  = base × (1 + batchPenalty × (batch − 1)): each decode step serves the whole batch, so
 *           a fuller batch makes every sequence's tokens slower
 *   KV    = tokens held by running sequences × bytes per token / KV capacity
 *
 * `scale` multiplies every time (0 turns the model off, for benchmarks; a fault raises it).
 */
export interface LatencyParams {
  maxBatch: number;
  prefillBaseMs: number;
  prefillPerTokenMs: number;
  /** Each running sequence adds this share to prefill time (they share the GPU). */
  prefillLoadPenalty: number;
  tpotBaseMs: number;
  batchPenalty: number;
  scale: number;
}

export const LLM_DEFAULTS: LatencyParams = {
  maxBatch: 32,
  prefillBaseMs: 25,
  prefillPerTokenMs: 0.15,
  prefillLoadPenalty: 0.02,
  tpotBaseMs: 12,
  batchPenalty: 0.03,
  scale: 1,
};

/** Vision and embedding replicas: one forward pass per request, batched like Triton's dynamic batcher. */
export const SINGLE_PASS_DEFAULTS: LatencyParams = {
  maxBatch: 16,
  prefillBaseMs: 8,
  prefillPerTokenMs: 0.02,
  prefillLoadPenalty: 0.05,
  tpotBaseMs: 0,
  batchPenalty: 0,
  scale: 1,
};

export function ttftMs(p: LatencyParams, promptTokens: number, running: number): number {
  return p.scale * (p.prefillBaseMs + promptTokens * p.prefillPerTokenMs) * (1 + p.prefillLoadPenalty * running);
}

export function tpotMs(p: LatencyParams, batch: number): number {
  return p.scale * p.tpotBaseMs * (1 + p.batchPenalty * Math.max(0, batch - 1));
}

// The memory rule lives with placement, which must agree with it (server/shared/memory-rule.ts).
export { kvBytesPerToken, MIN_KV_TOKENS } from "../../shared/memory-rule.ts";

export function kvUsage(tokensInFlight: number, bytesPerToken: number, capacityBytes: number): number {
  if (capacityBytes <= 0) return 1;
  return Math.min(1, (tokensInFlight * bytesPerToken) / capacityBytes);
}

/** Seconds to load weights from storage at `bandwidthBytesPerS` (cold start), plus engine start-up. */
export function coldStartMs(weightBytes: number, bandwidthBytesPerS: number, engineStartMs = 500): number {
  return engineStartMs + (weightBytes / bandwidthBytesPerS) * 1000;
}

/**
 * A tensor/pipeline-parallel engine's step times, from the single-GPU ones above. After Pope et
 * al., "Efficiently Scaling Transformer Inference" (MLSys 2023, arXiv:2211.05102): decode is
 * memory-bound, so a step reads the weights once, each GPU of a tensor-parallel group its 1/N
 * shard; every layer then all-reduces its activations, a cost that grows with N and with a slower
 * link. Speed-up S(N) = N / (1 + c·(N − 1)), c = 0.15 over NVLink/NVSwitch and 0.45 over PCIe
 * (TP 2, 4, 8 on NVLink: 1.7×, 2.8×, 3.9×). A model past REF_WEIGHT_BYTES (the 8B bf16 the defaults
 * are set for) reads proportionally more per step. Each pipeline boundary adds one hop between
 * nodes to every step and to prefill (activations over the node network, ~1.5 ms): pipeline
 * stages add memory, not speed, for one sequence.
 */
export const REF_WEIGHT_BYTES = 16e9;
export const PIPELINE_HOP_MS = 1.5;

export function tensorSpeedup(n: number, nvlink: boolean): number {
  const c = nvlink ? 0.15 : 0.45;
  return n / (1 + c * (n - 1));
}

export function groupLatency(p: LatencyParams, g: { tensor: number; pipeline: number; weightBytes: number; nvlink: boolean }): LatencyParams {
  if (g.tensor * g.pipeline === 1) return p;
  const work = Math.max(1, g.weightBytes / REF_WEIGHT_BYTES) / tensorSpeedup(g.tensor, g.nvlink);
  const hops = (g.pipeline - 1) * PIPELINE_HOP_MS;
  return { ...p, tpotBaseMs: p.tpotBaseMs * work + hops, prefillBaseMs: p.prefillBaseMs * work + hops, prefillPerTokenMs: p.prefillPerTokenMs * work };
}
