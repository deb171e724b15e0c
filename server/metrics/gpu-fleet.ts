import { type PromVector, type PrometheusClient, isMetricsUnavailable } from "./prometheus-client.ts";

export interface GpuNow {
  utilPct: number | null;
  fbUsedMiB: number | null;
  fbFreeMiB: number | null;
  powerW: number | null;
  tempC: number | null;
}

// Whole-GPU series only: MIG instances report their own framebuffer series with GPU_I_ID set.
const WHOLE = 'GPU_I_ID=""';
export const FLEET_QUERIES = {
  util: "DCGM_FI_DEV_GPU_UTIL",
  fbUsed: `DCGM_FI_DEV_FB_USED{${WHOLE}}`,
  fbFree: `DCGM_FI_DEV_FB_FREE{${WHOLE}}`,
  power: "DCGM_FI_DEV_POWER_USAGE",
  temp: "DCGM_FI_DEV_GPU_TEMP",
} as const;

/** Folds dcgm-exporter's instant vectors into one record per GPU UUID. */
export function byUuid(vectors: Record<keyof typeof FLEET_QUERIES, PromVector>): Record<string, GpuNow> {
  const out: Record<string, GpuNow> = {};
  const put = (v: PromVector, field: keyof GpuNow) => {
    for (const s of v) {
      const uuid = s.metric.UUID;
      if (!uuid) continue;
      out[uuid] ??= { utilPct: null, fbUsedMiB: null, fbFreeMiB: null, powerW: null, tempC: null };
      const n = Number(s.value[1]);
      out[uuid]![field] = Number.isFinite(n) ? n : null;
    }
  };
  put(vectors.util, "utilPct");
  put(vectors.fbUsed, "fbUsedMiB");
  put(vectors.fbFree, "fbFreeMiB");
  put(vectors.power, "powerW");
  put(vectors.temp, "tempC");
  return out;
}

/** Every GPU's utilization, memory, power and temperature now, for the fleet heat map. */
export async function gpuFleet({ prometheus }: { prometheus: PrometheusClient }) {
  try {
    const keys = Object.keys(FLEET_QUERIES) as (keyof typeof FLEET_QUERIES)[];
    const results = await Promise.all(keys.map((k) => prometheus.query(FLEET_QUERIES[k])));
    return { available: true as const, gpus: byUuid(Object.fromEntries(keys.map((k, i) => [k, results[i]!])) as Record<keyof typeof FLEET_QUERIES, PromVector>) };
  } catch (e) {
    if (isMetricsUnavailable(e)) return { available: false as const, reason: e.message };
    throw e;
  }
}
