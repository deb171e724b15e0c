/**
 * The one memory rule: what an engine allocates when it starts, and so what a device must hold
 * for Kule to place a replica there. vLLM takes `gpu_memory_utilization` (0.9) of the device for
 * its weights plus a KV cache, and refuses to start (CUDA out of memory) when the cache left
 * cannot hold one full sequence. Placement, manual starts, the autoscaler, MIG previews and the
 * simulator's engines all read it from here, so a replica Kule places never fails for memory.
 */
export const GPU_MEMORY_UTILIZATION = 0.9;

/** The smallest KV cache a replica needs to start: room for one full 4k-token sequence. */
export const MIN_KV_TOKENS = 4096;

const GiB = 2 ** 30;

/** A model's attention shape, from its card (config.json: num_hidden_layers, num_key_value_heads, head_dim). */
export interface AttentionShape {
  layers: number;
  kvHeads: number;
  headDim: number;
}

/**
 * KV-cache bytes per token: K and V for every layer's KV heads at 2 bytes (fp16/bf16, vLLM's
 * default kv_cache_dtype) when the card is known; otherwise a rough fit of Llama-class models by
 * parameter count, which overstates grouped-query models past 8B.
 */
export function kvBytesPerToken(params: number, shape?: AttentionShape | null): number {
  if (shape) return 2 * shape.layers * shape.kvHeads * shape.headDim * 2;
  // Llama 3.1 8B (32 layers, 8 KV heads × 128, fp16): 2 × 32 × 1024 × 2 B = 128 KiB per token.
  return Math.max(4096, Math.round((131072 * params) / 8e9));
}

/**
 * How a replica's engine is split over GPUs: tensor parallel inside a node (vLLM's
 * --tensor-parallel-size), pipeline parallel across nodes (--pipeline-parallel-size, one stage
 * per node). A single-GPU or MIG replica is 1 × 1.
 */
export interface Parallelism {
  tensor: number;
  pipeline: number;
}
export const SINGLE: Parallelism = { tensor: 1, pipeline: 1 };
export const groupSize = (p: Parallelism) => p.tensor * p.pipeline;

export interface ModelMemory {
  weightBytes: number;
  parameterCount: number;
  /** Only LLMs keep a KV cache. */
  task: string;
  /** The operator's stated minimum for the model version (over the whole group): honoured when it asks for more. */
  declaredMinBytes?: number;
  attention?: AttentionShape | null;
  /**
   * Tokens the KV cache must hold for the replica to serve as configured: the version's context
   * × its batch when it states both; otherwise MIN_KV_TOKENS, what the engine needs to start.
   */
  kvTokens?: number;
}

/** The KV tokens a version is configured to hold (context × batch), or the engine's minimum. */
export const configuredKvTokens = (contextTokens: number | null | undefined, maxBatch: number | null | undefined) => (contextTokens && maxBatch ? contextTokens * maxBatch : MIN_KV_TOKENS);

export interface MemoryNeed {
  /** What each GPU of the replica must hold. */
  bytes: number;
  weightBytes: number;
  kvBytes: number;
  kvTokens: number;
  parallelism: Parallelism;
}

/**
 * What each device of a replica must hold: its shard of the weights plus its shard of the
 * minimum KV cache (or its share of the stated minimum, if larger). Tensor parallelism splits
 * every layer's weights and KV heads over the GPUs of a node; pipeline parallelism gives each
 * node a run of layers: either way each GPU holds 1/N of both.
 */
export function memoryNeed(m: ModelMemory, parallelism: Parallelism = SINGLE): MemoryNeed {
  const n = groupSize(parallelism);
  const kvTokens = m.kvTokens ?? MIN_KV_TOKENS;
  const kvBytes = m.task === "llm" ? (kvTokens * kvBytesPerToken(m.parameterCount, m.attention)) / n : 0;
  const weightBytes = m.weightBytes / n;
  return { bytes: Math.max(weightBytes + kvBytes, (m.declaredMinBytes ?? 0) / n), weightBytes, kvBytes, kvTokens, parallelism };
}

/** The part of a device's memory the engine may use. */
export function usableBytes(deviceBytes: number): number {
  return deviceBytes * GPU_MEMORY_UTILIZATION;
}

export function fitsDevice(deviceBytes: number, needBytes: number): boolean {
  return needBytes <= usableBytes(deviceBytes);
}

export const gib = (bytes: number) => `${(bytes / GiB).toFixed(1)} GiB`;

export const parallelismText = (p: Parallelism) => (p.pipeline > 1 ? `PP ${p.pipeline} × TP ${p.tensor}` : `TP ${p.tensor}`);

/** The rule in words, for refusals and for a replica's "why this device". */
export function needText(need: MemoryNeed): string {
  const rule = `weights ${gib(need.weightBytes)}${need.kvBytes ? ` + KV cache for ${need.kvTokens} tokens ${gib(need.kvBytes)}` : ""}`;
  const per = groupSize(need.parallelism) > 1 ? ` per GPU at ${parallelismText(need.parallelism)}` : "";
  return need.bytes > need.weightBytes + need.kvBytes ? `${gib(need.bytes)}${per} (the version's stated minimum; ${rule})` : `${gib(need.bytes)}${per} (${rule})`;
}

export function deviceText(label: string, deviceBytes: number): string {
  return `${label}: ${gib(deviceBytes)}, ${gib(usableBytes(deviceBytes))} usable at ${GPU_MEMORY_UTILIZATION * 100}%`;
}
