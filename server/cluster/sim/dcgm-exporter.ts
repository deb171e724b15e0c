import { migInstanceMemoryBytes, migProfiles, type MigInstanceSpec } from "../mig.ts";
import { Exposition } from "./exposition.ts";
import type { GpuReadings } from "./gpu-readings.ts";
import type { SimGpu, SimNode } from "./inventory.ts";
import { dcgmHostLabel, type DcgmExporterVersion } from "../../metrics/exporters/versions.ts";

const MiB = 2 ** 20;
const DRIVER_VERSION = "580.95.05";
const BUS = ["18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"];
/** dcgm-exporter's xidErrCodeToText, for the codes the simulator's faults use. */
const XID_TEXT: Record<number, string> = { 0: "No Error", 13: "Graphics Engine Exception", 31: "GPU memory page fault", 79: "GPU has fallen off the bus" };

/**
 * Where a field is read, in dcgm-exporter's default mode: `dev` once for the device (repeated
 * on every MIG instance), `inst` per GPU instance, `none` not supported on instances (left out).
 */
type Scope = "dev" | "inst" | "none";
type Reading = { device: DeviceReading; instance: InstanceReading | null };
interface DeviceReading { gpu: SimGpu; busy: number; powerW: number; energyMj: number; tempC: number; memTempC: number }
interface InstanceReading { busy: number; usedMiB: number; totalMiB: number; reservedMiB: number }

/** The 26 rows of dcgm-exporter 4.x's etc/default-counters.csv (the driver-version row is a label). */
const FIELDS: { name: string; type: string | ((v: DcgmExporterVersion) => string); help: string; scope: Scope; float?: true; nvlink?: true; read: (r: Reading) => number }[] = [
  { name: "DCGM_FI_DEV_SM_CLOCK", type: "gauge", help: "SM clock frequency (in MHz).", scope: "dev", read: (r) => (r.device.busy > 0 ? 1980 : 345) },
  { name: "DCGM_FI_DEV_MEM_CLOCK", type: "gauge", help: "Memory clock frequency (in MHz).", scope: "dev", read: () => 2619 },
  { name: "DCGM_FI_DEV_MEMORY_TEMP", type: "gauge", help: "Memory temperature (in C).", scope: "dev", read: (r) => r.device.memTempC },
  { name: "DCGM_FI_DEV_GPU_TEMP", type: "gauge", help: "GPU temperature (in C).", scope: "dev", read: (r) => r.device.tempC },
  { name: "DCGM_FI_DEV_POWER_USAGE", type: "gauge", help: "Power draw (in W).", scope: "dev", float: true, read: (r) => r.device.powerW },
  { name: "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", type: "counter", help: "Total energy consumption since boot (in mJ).", scope: "dev", read: (r) => r.device.energyMj },
  { name: "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", type: "counter", help: "Total number of PCIe retries.", scope: "dev", read: () => 0 },
  { name: "DCGM_FI_DEV_GPU_UTIL", type: "gauge", help: "GPU utilization (in %).", scope: "none", read: (r) => r.device.busy * 100 },
  { name: "DCGM_FI_DEV_MEM_COPY_UTIL", type: "gauge", help: "Memory utilization (in %).", scope: "none", read: (r) => r.device.busy * 45 },
  { name: "DCGM_FI_DEV_ENC_UTIL", type: "gauge", help: "Encoder utilization (in %).", scope: "none", read: () => 0 },
  { name: "DCGM_FI_DEV_DEC_UTIL", type: "gauge", help: "Decoder utilization (in %).", scope: "none", read: () => 0 },
  { name: "DCGM_FI_DEV_XID_ERRORS", type: "gauge", help: "Value of the last XID error encountered.", scope: "dev", read: (r) => r.device.gpu.xid },
  { name: "DCGM_FI_DEV_FB_FREE", type: "gauge", help: "Framebuffer memory free (in MiB).", scope: "inst", read: (r) => fb(r).totalMiB - fb(r).usedMiB - fb(r).reservedMiB },
  { name: "DCGM_FI_DEV_FB_USED", type: "gauge", help: "Framebuffer memory used (in MiB).", scope: "inst", read: (r) => fb(r).usedMiB },
  { name: "DCGM_FI_DEV_FB_RESERVED", type: "gauge", help: "Framebuffer memory reserved (in MiB).", scope: "inst", read: (r) => fb(r).reservedMiB },
  // A counter in 4.5.3-4.8.2's counter list, a gauge from 4.6.0-4.8.3 on.
  { name: "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", type: (v) => (v === "4.6.0-4.8.3" ? "gauge" : "counter"), help: "Total number of NVLink bandwidth counters for all lanes.", scope: "dev", nvlink: true, read: (r) => Math.round(20_000 + r.device.busy * 6e9) },
  { name: "DCGM_FI_DEV_VGPU_LICENSE_STATUS", type: "gauge", help: "vGPU License status", scope: "dev", read: () => 0 },
  { name: "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", type: "counter", help: "Number of remapped rows for uncorrectable errors", scope: "dev", read: () => 0 },
  { name: "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", type: "counter", help: "Number of remapped rows for correctable errors", scope: "dev", read: () => 0 },
  { name: "DCGM_FI_DEV_ROW_REMAP_FAILURE", type: "gauge", help: "Whether remapping of rows has failed", scope: "dev", read: () => 0 },
  { name: "DCGM_FI_PROF_GR_ENGINE_ACTIVE", type: "gauge", help: "Ratio of time the graphics engine is active.", scope: "inst", float: true, read: (r) => busyOf(r) },
  { name: "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", type: "gauge", help: "Ratio of cycles the tensor (HMMA) pipe is active.", scope: "inst", float: true, read: (r) => busyOf(r) * 0.35 },
  { name: "DCGM_FI_PROF_DRAM_ACTIVE", type: "gauge", help: "Ratio of cycles the device memory interface is active sending or receiving data.", scope: "inst", float: true, read: (r) => busyOf(r) * 0.6 },
  { name: "DCGM_FI_PROF_PCIE_TX_BYTES", type: "gauge", help: "The rate of data transmitted over the PCIe bus - including both protocol headers and data payloads - in bytes per second.", scope: "dev", read: (r) => 150_000 + r.device.busy * 4e7 },
  { name: "DCGM_FI_PROF_PCIE_RX_BYTES", type: "gauge", help: "The rate of data received over the PCIe bus - including both protocol headers and data payloads - in bytes per second.", scope: "dev", read: (r) => 250_000 + r.device.busy * 6e7 },
];

const busyOf = (r: Reading) => (r.instance ? r.instance.busy : r.device.busy);
const fb = (r: Reading) => r.instance!;

/**
 * NVML's GPU instance id, which follows the instance's placement rather than counting 1..n:
 * 0 the whole GPU; 1 and 2 the halves at memory slot 4 and 0; 3–6 the quarters at slots 0, 2,
 * 4, 6; 7–13 the eighths at slots 0–6 (captured for 3g and 1g on H100/A100; the quarters are
 * inferred).
 */
export function nvmlInstanceId(gpuMemoryBytes: number, m: MigInstanceSpec): number {
  const slots = migProfiles(gpuMemoryBytes / 2 ** 30).find((p) => p.name === m.profile)?.memorySlots ?? 1;
  if (slots >= 8) return 0;
  if (slots >= 4) return m.startSlot === 0 ? 2 : 1;
  if (slots >= 2) return 3 + m.startSlot / 2;
  return 7 + m.startSlot;
}

/**
 * A node's dcgm-exporter page as `version` prints it in its default mode: the default counters
 * of every GPU, labelled gpu, UUID, pci_bus_id, device, modelName, the host (`hostname` or
 * `Hostname`) and the driver version; a MIG-enabled GPU only through its instances
 * (GPU_I_PROFILE, GPU_I_ID), device-level values repeated on each and GPU_UTIL left out; XID with
 * its err_code and err_msg; integers as `%d`, ratios and watts as `%f`.
 */
export function dcgmExposition(node: SimNode, readings: GpuReadings, version: DcgmExporterVersion): string {
  const out = new Exposition();
  const hostLabel = dcgmHostLabel(version);
  const entities: { labels: Record<string, string>; reading: Reading }[] = [];
  for (const g of node.gpus) {
    const busy = readings.deviceBusy(g);
    const device: DeviceReading = { gpu: g, busy, powerW: readings.powerW(g), energyMj: readings.energyMilliJoules(g), tempC: Math.round(31 + 48 * busy), memTempC: Math.round(35 + 40 * busy) };
    const base = { gpu: String(g.index), UUID: g.uuid, pci_bus_id: `00000000:${BUS[g.index] ?? (0x18 + g.index * 0x10).toString(16).toUpperCase()}:00.0`, device: `nvidia${g.index}`, modelName: g.modelName };
    const tail = { [hostLabel]: node.hostname, DCGM_FI_DRIVER_VERSION: DRIVER_VERSION };
    if (!g.migEnabled) {
      const totalMiB = Math.round(g.memoryBytes / MiB);
      const reservedMiB = Math.round(totalMiB * 0.0065);
      const usedMiB = Math.min(totalMiB - reservedMiB, Math.round(readings.usedBytes(g.uuid) / MiB));
      entities.push({ labels: { ...base, ...tail }, reading: { device, instance: { busy, usedMiB, totalMiB, reservedMiB } } });
      continue;
    }
    for (const m of g.mig) {
      const totalMiB = Math.round(migInstanceMemoryBytes(g.memoryBytes, m.profile) / MiB);
      const reservedMiB = Math.round(totalMiB * 0.001);
      const usedMiB = Math.min(totalMiB - reservedMiB, Math.round(readings.usedBytes(g.uuid, m.startSlot) / MiB));
      const instance = { busy: readings.busy(g.uuid, m.startSlot), usedMiB, totalMiB, reservedMiB };
      entities.push({ labels: { ...base, GPU_I_PROFILE: m.profile, GPU_I_ID: String(nvmlInstanceId(g.memoryBytes, m)), ...tail }, reading: { device, instance } });
    }
  }
  for (const f of FIELDS) {
    const type = typeof f.type === "function" ? f.type(version) : f.type;
    for (const e of entities) {
      if (f.scope === "none" && e.labels.GPU_I_ID) continue; // not supported on GPU instances: dcgm-exporter skips blank values
      if (f.nvlink && !/H100|H200|A100|B200/.test(e.reading.device.gpu.modelName)) continue;
      const v = f.read(e.reading);
      const labels = f.name === "DCGM_FI_DEV_XID_ERRORS" ? { ...e.labels, err_code: String(v), err_msg: XID_TEXT[v] ?? "Unknown Error" } : e.labels;
      out.add(f.name, type, f.help, labels, f.float ? v.toFixed(6) : String(Math.round(v)));
    }
  }
  return out.text();
}

