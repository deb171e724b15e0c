import type { SimReplica } from "./replica.ts";
import type { SimGpu } from "./inventory.ts";
import { migComputeSlices } from "../mig.ts";

const GiB = 2 ** 30;

/** Idle and maximum board power of the cards the reference cluster has. */
const POWER: Record<string, [number, number]> = { H100: [72, 700], L40S: [36, 350], A100: [55, 400] };
export const powerRange = (model: string) => POWER[Object.keys(POWER).find((k) => model.includes(k)) ?? "H100"]!;

/**
 * What a GPU's sensors would read, derived from the replicas running on it: how busy their
 * engines keep it, the framebuffer they hold, the power that draws. dcgm-exporter's page and
 * Triton's GPU gauges both read these.
 */
export class GpuReadings {
  constructor(private readonly replicas: Map<string, SimReplica>) {}

  private on(gpuUuid: string, startSlot?: number) {
    return [...this.replicas.values()].filter(
      (r) => (r.placement.gpuUuid === gpuUuid || r.placement.gpuUuids.includes(gpuUuid)) && r.state !== "stopped" && r.state !== "failed" && (startSlot === undefined || (r.spec.device.kind === "mig" && r.spec.device.startSlot === startSlot)),
    );
  }

  /** 0–1: how busy a device's engines keep it (work in flight against their batch size). */
  busy(gpuUuid: string, startSlot?: number): number {
    let busy = 0;
    for (const r of this.on(gpuUuid, startSlot)) {
      const running = r.engine.runningCount;
      if (running > 0) busy = Math.max(busy, Math.min(1, 0.35 + (0.65 * running) / r.engine.params.maxBatch + (r.engine.waitingCount > 0 ? 0.1 : 0)));
    }
    return busy;
  }

  /** Framebuffer used: weights (a group member: its shard) plus KV cache in use plus ~0.5 GiB of CUDA context per engine. */
  usedBytes(gpuUuid: string, startSlot?: number): number {
    return this.on(gpuUuid, startSlot).reduce((s, r) => s + (r.state === "loading" ? r.weightBytesPerGpu * loadedShare(r) : r.weightBytesPerGpu + r.kvBytesInUse) + 0.5 * GiB, 0);
  }

  /** 0–1 for the whole device: a MIG GPU is as busy as its instances, each by its share of the 7 compute slices. */
  deviceBusy(gpu: SimGpu): number {
    if (!gpu.migEnabled) return this.busy(gpu.uuid);
    return gpu.mig.reduce((s, m) => s + (this.busy(gpu.uuid, m.startSlot) * migComputeSlices(m.profile)) / 7, 0);
  }

  powerW(gpu: SimGpu): number {
    const [idle, max] = powerRange(gpu.modelName);
    return idle + (max - idle) * this.deviceBusy(gpu);
  }

  private energy = new Map<string, { mJ: number; at: number }>();

  /** Energy since boot (mJ), as DCGM counts it: the power drawn between readings, added up. */
  energyMilliJoules(gpu: SimGpu): number {
    const now = Date.now();
    // A GPU that has been up a while before the simulator started (about a day at idle).
    const e = this.energy.get(gpu.uuid) ?? { mJ: powerRange(gpu.modelName)[0] * 86_400_000, at: now };
    e.mJ += this.powerW(gpu) * (now - e.at);
    e.at = now;
    this.energy.set(gpu.uuid, e);
    return Math.round(e.mJ);
  }

  /** The view of one GPU a replica's Triton metrics report. */
  view(gpu: SimGpu) {
    return { uuid: gpu.uuid, util: this.deviceBusy(gpu), usedBytes: this.usedBytes(gpu.uuid), totalBytes: gpu.memoryBytes, powerW: this.powerW(gpu), powerLimitW: powerRange(gpu.modelName)[1] };
  }
}

function loadedShare(r: SimReplica): number {
  if (!r.expectedReadyAt) return 1;
  const total = r.expectedReadyAt - r.startedAt;
  return total <= 0 ? 1 : Math.min(1, (Date.now() - r.startedAt) / total);
}
