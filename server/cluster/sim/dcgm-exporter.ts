import { migInstanceMemoryBytes } from "../mig.ts";
import { Exposition } from "./exposition.ts";
import { powerRange, type GpuReadings } from "./gpu-readings.ts";
import type { SimNode } from "./inventory.ts";

const MiB = 2 ** 20;

/** A node's dcgm-exporter page: the series and labels dcgm-exporter prints for its GPUs. */
export function dcgmExposition(node: SimNode, readings: GpuReadings): string {
  const out = new Exposition();
  for (const g of node.gpus) {
    const base = { gpu: String(g.index), UUID: g.uuid, device: `nvidia${g.index}`, modelName: g.modelName, Hostname: node.hostname };
    const busy = readings.busy(g.uuid);
    const [idle, max] = powerRange(g.modelName);
    const usedMiB = Math.round(readings.usedBytes(g.uuid) / MiB);
    const totalMiB = Math.round(g.memoryBytes / MiB);
    out.add("DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).", base, Math.round(busy * 100));
    out.add("DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %).", base, Math.round(busy * 45));
    out.add("DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB).", base, usedMiB);
    out.add("DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB).", base, Math.max(0, totalMiB - usedMiB));
    out.add("DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W).", base, +(idle + (max - idle) * busy).toFixed(3));
    out.add("DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C).", base, Math.round(31 + 48 * busy));
    out.add("DCGM_FI_DEV_MEMORY_TEMP", "gauge", "Memory temperature (in C).", base, Math.round(35 + 40 * busy));
    out.add("DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz).", base, busy > 0 ? 1980 : 345);
    out.add("DCGM_FI_DEV_MEM_CLOCK", "gauge", "Memory clock frequency (in MHz).", base, 2619);
    out.add("DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered.", base, g.xid);
    if (!g.migEnabled) {
      out.add("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gauge", "Ratio of time the graphics engine is active.", base, +busy.toFixed(4));
      out.add("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "gauge", "Ratio of cycles the tensor (HMMA) pipe is active.", base, +(busy * 0.6).toFixed(4));
      out.add("DCGM_FI_PROF_DRAM_ACTIVE", "gauge", "Ratio of cycles the device memory interface is active.", base, +(busy * 0.5).toFixed(4));
    }
    // Per MIG instance, dcgm-exporter reports the GR engine and framebuffer, labelled by profile and instance id.
    g.mig.forEach((m, i) => {
      const labels = { ...base, GPU_I_PROFILE: m.profile, GPU_I_ID: String(i + 1) };
      const ib = readings.busy(g.uuid, m.startSlot);
      const memMiB = Math.round(migInstanceMemoryBytes(g.memoryBytes, m.profile) / MiB);
      const usedI = Math.round(readings.usedBytes(g.uuid, m.startSlot) / MiB);
      out.add("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gauge", "Ratio of time the graphics engine is active.", labels, +ib.toFixed(4));
      out.add("DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB).", labels, usedI);
      out.add("DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB).", labels, Math.max(0, memMiB - usedI));
    });
  }
  return out.text();
}
