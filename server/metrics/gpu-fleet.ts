import { migComputeSlices } from "../cluster/mig.ts";
import { type PromVector, type PrometheusClient, isMetricsUnavailable } from "./prometheus-client.ts";

export interface GpuNow {
  utilPct: number | null;
  fbUsedMiB: number | null;
  fbFreeMiB: number | null;
  powerW: number | null;
  tempC: number | null;
}

/**
 * dcgm-exporter's series as they are: whole GPUs have one series each; a MIG-enabled GPU has only
 * its instances' (GPU_I_ID set), which `byUuid` folds into the GPU. An instance has no
 * DCGM_FI_DEV_GPU_UTIL, so its utilization is its GR engine activity (in %).
 */
export const FLEET_QUERIES = {
  // A whole GPU's GPU_UTIL, else (profiling-only counter sets) its GR engine activity; an instance's GR activity.
  util: 'DCGM_FI_DEV_GPU_UTIL{GPU_I_ID=""} or DCGM_FI_PROF_GR_ENGINE_ACTIVE * 100',
  fbUsed: "DCGM_FI_DEV_FB_USED",
  fbFree: "DCGM_FI_DEV_FB_FREE",
  power: "DCGM_FI_DEV_POWER_USAGE",
  temp: "DCGM_FI_DEV_GPU_TEMP",
} as const;

/** A MIG GPU has 7 compute slices: an instance's activity counts for its share of them. */
const MIG_SLICES = 7;

type Fold = "sum" | "max" | "slices";
/** Framebuffer adds up over instances; device-level readings repeat on each, so one is read. */
const FOLD: Record<keyof typeof FLEET_QUERIES, Fold> = { util: "slices", fbUsed: "sum", fbFree: "sum", power: "max", temp: "max" };
const FIELD: Record<keyof typeof FLEET_QUERIES, keyof GpuNow> = { util: "utilPct", fbUsed: "fbUsedMiB", fbFree: "fbFreeMiB", power: "powerW", temp: "tempC" };

/**
 * Folds dcgm-exporter's instant vectors into one record per GPU UUID: a whole GPU's value as
 * is; a MIG GPU's framebuffer summed over its instances, power and temperature read once, and
 * utilization as the GPU's share of busy compute slices (a 3g instance at 80% is 3/7 × 80%).
 */
export function byUuid(vectors: Record<keyof typeof FLEET_QUERIES, PromVector>): Record<string, GpuNow> {
  const out: Record<string, GpuNow> = {};
  for (const key of Object.keys(FLEET_QUERIES) as (keyof typeof FLEET_QUERIES)[]) {
    // UUID → instance ("" for a whole GPU) → value: a GPU scraped twice still counts once.
    const gpus = new Map<string, Map<string, { n: number | null; slices: number }>>();
    for (const s of vectors[key]) {
      const uuid = s.metric.UUID;
      if (!uuid) continue;
      const n = Number(s.value[1]);
      const instances = gpus.get(uuid) ?? new Map();
      gpus.set(uuid, instances);
      instances.set(s.metric.GPU_I_ID ?? "", { n: Number.isFinite(n) ? n : null, slices: migComputeSlices(s.metric.GPU_I_PROFILE ?? "") });
    }
    for (const [uuid, instances] of gpus) {
      const known = [...instances.entries()].filter((e): e is [string, { n: number; slices: number }] => e[1].n !== null);
      let v: number | null = null;
      if (known.length) {
        const ns = known.map(([id, x]) => (FOLD[key] === "slices" && id !== "" ? (x.n * x.slices) / MIG_SLICES : x.n));
        v = FOLD[key] === "max" ? Math.max(...ns) : ns.reduce((a, b) => a + b, 0);
        if (key === "util") v = Math.round(v * 10) / 10;
      }
      out[uuid] ??= { utilPct: null, fbUsedMiB: null, fbFreeMiB: null, powerW: null, tempC: null };
      out[uuid][FIELD[key]] = v;
    }
  }
  return out;
}

/** Every GPU's utilization, memory, power and temperature now, for the fleet heat map. */
export async function gpuFleet({ prometheus }: { prometheus: PrometheusClient }) {
  try {
    const keys = Object.keys(FLEET_QUERIES) as (keyof typeof FLEET_QUERIES)[];
    const results = await Promise.all(keys.map((k) => prometheus.query(FLEET_QUERIES[k])));
    return { available: true as const, gpus: byUuid(Object.fromEntries(keys.map((k, i) => [k, results[i]!])) as Record<keyof typeof FLEET_QUERIES, PromVector>) };
  } catch (e) {
    if (isMetricsUnavailable(e)) return { available: false as const, reason: e.why };
    throw e;
  }
}
