import { decodeStepMs, prefillMs, sequencesHeld, type Device, type Split, type Workload } from "./roofline.ts";

/**
 * A replica at maximum load (an offline benchmark: requests queued without pause), by the
 * roofline: the batch is as many sequences of `isl + osl` tokens as the KV cache holds beside the
 * weights (at most `batchCap`), and every request costs its prefill (compute-bound, one after
 * another) plus its share of `osl` decode steps of that batch. Output tokens per second:
 *
 *   batch × osl / (batch × prefill + osl × step(batch))
 */
export function maxLoadThroughput(w: Workload, d: Device, split: Split, deviceBytes: number, isl: number, osl: number, batchCap: number) {
  const batch = Math.max(0, Math.min(batchCap, sequencesHeld(w, deviceBytes, split, isl + osl)));
  if (batch === 0) return { batch, stepMs: 0, prefillMs: 0, tokensPerS: 0 };
  const step = decodeStepMs(w, d, split, batch, isl + osl / 2);
  const pre = prefillMs(w, d, split, isl);
  return { batch, stepMs: step, prefillMs: pre, tokensPerS: (batch * osl * 1000) / (batch * pre + osl * step) };
}
