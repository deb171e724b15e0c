import { LLM_DEFAULTS, type LatencyParams } from "./latency-model.ts";

/**
 * The simulated LLM engine's step times, from the GPU it runs on and the model it serves, kernel
 * by kernel. It is the simulator's own account of a vLLM decode step, written apart from the
 * capacity planner (server/planner/), whose coarser roofline is checked against it
 * (`npm run bench planner`): the two share datasheet figures, as any two models of one GPU must,
 * and nothing else.
 *
 * One engine step (vLLM's continuous batching: every running sequence advances one token, and a
 * newly admitted prompt is prefilled within the same step):
 *   per layer, each GPU of the tensor-parallel group streams its shard of the layer's weights
 *     (bytes / achieved HBM bandwidth) in KERNELS_PER_LAYER kernels, each with a launch cost;
 *   per layer, two all-reduces of the batch's activations (after attention and after the MLP),
 *     each a fixed NCCL latency plus a ring's 2(N−1)/N of the message over the GPU link;
 *   per step, the host's scheduling and sampling, and one hop per pipeline boundary;
 *   per running sequence, its KV cache read (context × bytes per token, sharded over the group);
 *   per prompt token, 2 × parameters FLOPs at the prefill utilisation (compute-bound).
 * Mapped onto the engine's linear latency model (latency-model.ts) with the KV read per token
 * of context kept as its own term, so a longer context slows every step as it does on a GPU.
 */
export interface GpuFigures {
  hbmBytesPerS: number;
  bf16Flops: number;
  fp8Flops: number | null;
  /** One direction of a GPU's link to its peers: NVLink through NVSwitch, or PCIe. */
  linkBytesPerS: number;
}

// NVIDIA datasheets (dense tensor FLOP/s without sparsity; NVLink 4 is 900 GB/s both ways on H100/H200 SXM, PCIe Gen4/5 x16 ~32/64 GB/s).
const GPUS: [RegExp, GpuFigures][] = [
  [/H200/, { hbmBytesPerS: 4.8e12, bf16Flops: 989e12, fp8Flops: 1979e12, linkBytesPerS: 450e9 }],
  [/H100/, { hbmBytesPerS: 3.35e12, bf16Flops: 989e12, fp8Flops: 1979e12, linkBytesPerS: 450e9 }],
  [/A100/, { hbmBytesPerS: 2.039e12, bf16Flops: 312e12, fp8Flops: null, linkBytesPerS: 300e9 }],
  [/L40S/, { hbmBytesPerS: 864e9, bf16Flops: 362e12, fp8Flops: 733e12, linkBytesPerS: 32e9 }],
  [/L4\b/, { hbmBytesPerS: 300e9, bf16Flops: 121e12, fp8Flops: 242e12, linkBytesPerS: 32e9 }],
];
/** A GPU the table does not name runs as an A100 would. */
const GENERIC = GPUS[2]![1];

export const simGpu = (modelName: string | null): GpuFigures => GPUS.find(([re]) => modelName && re.test(modelName))?.[1] ?? GENERIC;

/**
 * The engine's constants, each a reading of how vLLM runs on Hopper rather than a fit to the
 * planner: large streaming kernels reach ~90% of HBM bandwidth (NVIDIA's STREAM-like
 * measurements, ~3 TB/s of 3.35 on H100); a Llama layer is ~7 kernels (2 norms, QKV, attention,
 * O, gate-up, down) at ~2 µs each under CUDA graphs; an NCCL all-reduce of a few hundred KiB
 * costs ~10 µs over NVSwitch and ~25 µs over PCIe before its bytes; vLLM's host side (scheduler,
 * sampler, detokenizer) ~0.8 ms a step plus ~15 µs a sequence; prefill at 55% of peak FLOP/s; a
 * pipeline hop over InfiniBand ~1 ms.
 */
export const PHYSICS = {
  hbmEfficiency: 0.9,
  kernelsPerLayer: 7,
  kernelLaunchMs: 0.002,
  allReduceLatencyMs: { nvlink: 0.01, pcie: 0.025 },
  hostStepMs: 0.8,
  hostPerSequenceMs: 0.015,
  prefillUtilisation: 0.55,
  pipelineHopMs: 1,
} as const;

export interface PhysicalModel {
  parameterCount: number;
  weightBytes: number;
  kvBytesPerToken: number;
  layers: number;
}

export interface PhysicalPlacement {
  gpu: GpuFigures;
  tensor: number;
  pipeline: number;
  nvlink: boolean;
  /** The share of the GPU the replica runs on: 1 for whole GPUs, a MIG instance's memory share. */
  share: number;
}

/** Llama-like models: parameters ≈ 12 × layers × hidden², for the all-reduce's message size. */
const hiddenOf = (m: PhysicalModel) => Math.sqrt(m.parameterCount / (12 * m.layers));

export function physicalLatency(m: PhysicalModel, g: PhysicalPlacement, scale: number): LatencyParams {
  const n = g.tensor * g.pipeline;
  const bandwidth = g.gpu.hbmBytesPerS * PHYSICS.hbmEfficiency * g.share;
  const fp8 = m.weightBytes / m.parameterCount < 1.5 && g.gpu.fp8Flops !== null;
  const flops = (fp8 ? g.gpu.fp8Flops! : g.gpu.bf16Flops) * g.share * PHYSICS.prefillUtilisation;
  // Each pipeline stage runs its layers in turn, so a step crosses every layer of the model once.
  const weightsMs = (m.weightBytes / n / bandwidth) * 1000 * g.pipeline;
  const kernelsMs = m.layers * PHYSICS.kernelsPerLayer * PHYSICS.kernelLaunchMs;
  const ring = g.tensor > 1 ? (2 * (g.tensor - 1)) / g.tensor : 0;
  const link = g.nvlink ? "nvlink" : "pcie";
  const allReduceFixedMs = g.tensor > 1 ? 2 * m.layers * PHYSICS.allReduceLatencyMs[link] : 0;
  // Each sequence adds its hidden state (bf16) to both of every layer's all-reduces.
  const allReducePerSeqMs = ((2 * m.layers * ring * hiddenOf(m) * 2) / g.gpu.linkBytesPerS) * 1000;
  const fixed = weightsMs + kernelsMs + allReduceFixedMs + PHYSICS.hostStepMs + (g.pipeline - 1) * PHYSICS.pipelineHopMs;
  const perSeq = PHYSICS.hostPerSequenceMs + allReducePerSeqMs;
  const step1 = fixed + perSeq;
  return {
    maxBatch: LLM_DEFAULTS.maxBatch,
    prefillBaseMs: step1,
    prefillPerTokenMs: ((2 * m.parameterCount) / (g.tensor * flops)) * 1000,
    prefillLoadPenalty: perSeq / step1,
    tpotBaseMs: step1,
    batchPenalty: perSeq / step1,
    // Per step, every held token's KV entry is read once, each GPU its shard.
    kvReadMsPerToken: ((m.kvBytesPerToken / n / bandwidth) * 1000) * g.pipeline,
    scale,
  };
}
