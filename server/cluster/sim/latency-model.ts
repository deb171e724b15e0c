/**
 * How long a continuous-batching engine (vLLM-like) takes, as pure functions of its load. A
 * replica runs up to `maxBatch` sequences at once; further requests wait in a queue.
 *
 *   TTFT  = prefill: base + promptTokens × perPromptToken, slowed by the sequences already decoding
 *   TPOT  = base × (1 + batchPenalty × (batch − 1)) + kvReadMsPerToken × tokens held: each decode
 *           step serves the whole batch and reads its KV cache, so a fuller batch or a longer
 *           context makes every sequence's tokens slower
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
  /** Each token of KV cache held adds this to every decode step (its entry is read once a step). */
  kvReadMsPerToken?: number;
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

export function tpotMs(p: LatencyParams, batch: number, tokensHeld = 0): number {
  return p.scale * (p.tpotBaseMs * (1 + p.batchPenalty * Math.max(0, batch - 1)) + (p.kvReadMsPerToken ?? 0) * tokensHeld);
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
