/**
 * What the planner knows of each GPU kind: its datasheet, and how much of it an inference engine
 * achieves. Peaks are NVIDIA's published datasheet figures (dense, without sparsity); the
 * achievable fractions are named constants, not hidden in formulas, with where they come from.
 */
export interface GpuSpec {
  /** How the fleet names it (dcgm-exporter's modelName / GPU feature discovery's product), matched loosely. */
  match: RegExp;
  name: string;
  memoryBytes: number;
  /** HBM (or GDDR) bandwidth, bytes/s. */
  memoryBytesPerS: number;
  /** Dense tensor FLOP/s at bf16/fp16 and at FP8 (null: no FP8 tensor cores). */
  bf16Flops: number;
  fp8Flops: number | null;
  /** Board power at full load and idle, W. */
  maxW: number;
  idleW: number;
  /** GPUs of a node share an NVLink/NVSwitch fabric (SXM boards); PCIe cards do not. */
  nvlink: boolean;
  /** What one GPU sends its peers per second, one way: NVLink through NVSwitch, else PCIe. */
  linkBytesPerS: number;
  source: string;
}

const GB = 1e9;
const GiB = 2 ** 30;

export const GPU_SPECS: GpuSpec[] = [
  {
    match: /H200/,
    name: "NVIDIA H200 141GB",
    memoryBytes: 141 * GB,
    memoryBytesPerS: 4.8e12,
    bf16Flops: 989e12,
    fp8Flops: 1979e12,
    maxW: 700,
    idleW: 75,
    nvlink: true,
    linkBytesPerS: 450e9,
    source: "NVIDIA H200 Tensor Core GPU datasheet (SXM): 141 GB HBM3e at 4.8 TB/s; 989 TFLOPS bf16, 1,979 TFLOPS FP8 dense; 700 W",
  },
  {
    match: /H100/,
    name: "NVIDIA H100 80GB HBM3",
    memoryBytes: 80 * GiB,
    memoryBytesPerS: 3.35e12,
    bf16Flops: 989e12,
    fp8Flops: 1979e12,
    maxW: 700,
    idleW: 72,
    nvlink: true,
    linkBytesPerS: 450e9,
    source: "NVIDIA H100 Tensor Core GPU datasheet (SXM5): 80 GB HBM3 at 3.35 TB/s; 989 TFLOPS bf16, 1,979 TFLOPS FP8 dense; 700 W",
  },
  {
    match: /A100/,
    name: "NVIDIA A100-SXM4-80GB",
    memoryBytes: 80 * GiB,
    memoryBytesPerS: 2.039e12,
    bf16Flops: 312e12,
    fp8Flops: null,
    maxW: 400,
    idleW: 55,
    nvlink: true,
    linkBytesPerS: 300e9,
    source: "NVIDIA A100 Tensor Core GPU datasheet (SXM4 80GB): HBM2e at 2,039 GB/s; 312 TFLOPS bf16 dense; 400 W",
  },
  {
    match: /L40S/,
    name: "NVIDIA L40S",
    memoryBytes: 48 * GiB,
    memoryBytesPerS: 864e9,
    bf16Flops: 362e12,
    fp8Flops: 733e12,
    maxW: 350,
    idleW: 36,
    nvlink: false,
    linkBytesPerS: 32e9,
    source: "NVIDIA L40S datasheet: 48 GB GDDR6 at 864 GB/s; 362 TFLOPS bf16, 733 TFLOPS FP8 dense; 350 W; PCIe, no NVLink",
  },
];

export function specFor(modelName: string): GpuSpec | null {
  return GPU_SPECS.find((s) => s.match.test(modelName)) ?? null;
}

/**
 * How much of a GPU's peak an engine reaches, and what runs beside the maths. Assumed from the
 * literature, then checked against published results (README, Capacity planner):
 * - `prefillCompute`: model FLOPs utilization of prefill, which is compute-bound. Pope et al.
 *   ("Efficiently Scaling Transformer Inference", MLSys 2023) reach 76% MFU on large prefills;
 *   serving engines with mixed batches sit lower, so 0.5.
 * - `decodeCompute`: the same for a decode step's GEMMs, which have one row per sequence of the
 *   batch (hundreds, not prefill's thousands of tokens) and so keep the tensor cores less busy;
 *   it matters only where a large batch makes decode compute-bound (405B at TP 8), so 0.35.
 * - `decodeBandwidth`: the share of peak memory bandwidth a decode step streams weights and KV at;
 *   memory-bound kernels reach 70–85% of HBM peak (NVIDIA's STREAM-like figures), so 0.75.
 * - `stepOverheadMs`: scheduling, sampling and kernel launches per decode step, which bandwidth does
 *   not explain (visible at batch 1 as the gap to the roofline), ~1 ms.
 * - `allReduceLatencyMs`: NCCL's fixed cost of one small all-reduce (nccl-tests' latency at a few
 *   hundred KiB: ~12 µs over NVSwitch, ~30 µs over PCIe), paid twice per layer under tensor
 *   parallelism before the bytes.
 * - `pipelineHopMs`: activations handed to the next node per step and per prefill (InfiniBand).
 */
export const EFFICIENCY = {
  prefillCompute: 0.5,
  decodeCompute: 0.35,
  decodeBandwidth: 0.75,
  stepOverheadMs: 1,
  allReduceLatencyMs: { nvlink: 0.012, pcie: 0.03 },
  pipelineHopMs: 1,
} as const;
