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

/** KV-cache bytes per token for a model of `params` parameters (a rough fit of Llama-class models). */
export function kvBytesPerToken(params: number): number {
  // Llama 3.1 8B (32 layers, 8 KV heads × 128, fp16): 2 × 32 × 1024 × 2 B = 128 KiB per token.
  return Math.max(4096, Math.round((131072 * params) / 8e9));
}

export interface ModelMemory {
  weightBytes: number;
  parameterCount: number;
  /** Only LLMs keep a KV cache. */
  task: string;
  /** The operator's stated minimum for the model version: honoured when it asks for more. */
  declaredMinBytes?: number;
}

/** What a device must hold for the replica: weights plus the minimum KV cache (or the stated minimum, if larger). */
export function memoryNeed(m: ModelMemory): { bytes: number; weightBytes: number; kvBytes: number } {
  const kvBytes = m.task === "llm" ? MIN_KV_TOKENS * kvBytesPerToken(m.parameterCount) : 0;
  return { bytes: Math.max(m.weightBytes + kvBytes, m.declaredMinBytes ?? 0), weightBytes: m.weightBytes, kvBytes };
}

/** The part of a device's memory the engine may use. */
export function usableBytes(deviceBytes: number): number {
  return deviceBytes * GPU_MEMORY_UTILIZATION;
}

export function fitsDevice(deviceBytes: number, needBytes: number): boolean {
  return needBytes <= usableBytes(deviceBytes);
}

export const gib = (bytes: number) => `${(bytes / GiB).toFixed(1)} GiB`;

/** The rule in words, for refusals and for a replica's "why this device". */
export function needText(need: ReturnType<typeof memoryNeed>): string {
  const rule = `weights ${gib(need.weightBytes)}${need.kvBytes ? ` + KV cache for ${MIN_KV_TOKENS} tokens ${gib(need.kvBytes)}` : ""}`;
  return need.bytes > need.weightBytes + need.kvBytes ? `${gib(need.bytes)} (the version's stated minimum; ${rule})` : `${gib(need.bytes)} (${rule})`;
}

export function deviceText(label: string, deviceBytes: number): string {
  return `${label}: ${gib(deviceBytes)}, ${gib(usableBytes(deviceBytes))} usable at ${GPU_MEMORY_UTILIZATION * 100}%`;
}
