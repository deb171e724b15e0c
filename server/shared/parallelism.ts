import { fitsDevice, gib, groupSize, kvBytesPerToken, memoryNeed, parallelismText, usableBytes, type ModelMemory, type Parallelism } from "./memory-rule.ts";

/**
 * Which tensor × pipeline split a model needs on a kind of GPU, and how it fits, by the one memory
 * rule (memory-rule.ts). Tensor parallel degrees are powers of two up to a node's GPUs (attention
 * heads divide by them, and NVSwitch all-reduce is built for them); past one node, pipeline stages
 * of a whole node's GPUs each.
 */
export interface GpuKind {
  modelName: string;
  memoryBytes: number;
  gpusPerNode: number;
  nodes: number;
}

export interface FitLine {
  parallelism: Parallelism;
  gpus: number;
  fits: boolean;
  /** What each GPU must hold by the memory rule, and what it holds of weights and of KV cache. */
  needBytesPerGpu: number;
  weightBytesPerGpu: number;
  kvBytesPerGpu: number;
  /** Full-context sequences the group's KV cache holds at once (0 when it does not fit). */
  sequences: number;
  text: string;
}

const TENSOR_DEGREES = [1, 2, 4, 8];

/** The splits worth considering on this GPU kind, smallest first. */
export function candidateSplits(kind: GpuKind): Parallelism[] {
  const out: Parallelism[] = TENSOR_DEGREES.filter((t) => t <= Math.max(1, kind.gpusPerNode)).map((tensor) => ({ tensor, pipeline: 1 }));
  for (let pipeline = 2; pipeline <= kind.nodes && kind.gpusPerNode > 0; pipeline++) out.push({ tensor: out[out.length - 1]!.tensor, pipeline });
  return out;
}

/** How a model lays over one split: memory per GPU and the sequences of `contextTokens` its KV cache holds. */
export function fitLine(m: ModelMemory & { label?: string }, kind: Pick<GpuKind, "modelName" | "memoryBytes">, p: Parallelism, contextTokens: number): FitLine {
  const need = memoryNeed(m, p);
  const n = groupSize(p);
  const fits = fitsDevice(kind.memoryBytes, need.bytes);
  const kvBytesPerGpu = Math.max(0, usableBytes(kind.memoryBytes) - need.weightBytes);
  const perSequence = (contextTokens * kvBytesPerToken(m.parameterCount, m.attention)) / n;
  const sequences = fits && m.task === "llm" && perSequence > 0 ? Math.floor(kvBytesPerGpu / perSequence) : 0;
  const head = `${m.label ? `${m.label}, ` : ""}${parallelismText(p)} (${n} GPU${n > 1 ? "s" : ""})`;
  const kv = m.task === "llm" ? ` + ${gib(kvBytesPerGpu)} KV (${sequences} sequence${sequences === 1 ? "" : "s"} of ${contextTokens} tokens)` : "";
  const text = fits
    ? `${head}: ${gib(need.weightBytes)} weights${kv} per GPU: fits ${kind.modelName}`
    : `${head}: ${gib(need.bytes)} per GPU (${gib(need.weightBytes)} weights + ${gib(need.kvBytes)} KV for ${need.kvTokens} tokens) is more than the ${gib(usableBytes(kind.memoryBytes))} usable of ${kind.modelName}: does not fit`;
  return { parallelism: p, gpus: n, fits, needBytesPerGpu: need.bytes, weightBytesPerGpu: need.weightBytes, kvBytesPerGpu: fits ? kvBytesPerGpu : 0, sequences, text };
}

/** Every split of this GPU kind, with how the model fits each. */
export function fitTable(m: ModelMemory & { label?: string }, kind: GpuKind, contextTokens: number): FitLine[] {
  return candidateSplits(kind).map((p) => fitLine(m, kind, p, contextTokens));
}

/**
 * The smallest split that holds the model: fewest GPUs first (a replica on fewer GPUs wastes no
 * all-reduce and leaves room for others). Null when even every node of the pool together cannot.
 */
export function proposeParallelism(m: ModelMemory, kind: GpuKind): Parallelism | null {
  return candidateSplits(kind).find((p) => fitsDevice(kind.memoryBytes, memoryNeed(m, p).bytes)) ?? null;
}
