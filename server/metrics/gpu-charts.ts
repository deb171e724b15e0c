import { matrixToRows, type ChartRow, type PromMatrix } from "./adapters.ts";
import { labelValue, RANGES, stepFor, type RangeName } from "./promql.ts";
import { type PrometheusClient, isMetricsUnavailable } from "./prometheus-client.ts";

/** A node (dcgm-exporter's `Hostname`) or one GPU (`UUID`), with its MIG instances. */
export type DcgmScope = { kind: "node"; hostname: string } | { kind: "gpu"; uuid: string };

export interface GpuChart {
  id: string;
  title: string;
  unit: "%" | "MiB" | "W" | "°C" | "MHz";
  rows: ChartRow[];
  series: string[];
}

export interface XidEvent {
  /** ms */
  t: number;
  xid: number;
  device: string;
}

const selector = (s: DcgmScope) => (s.kind === "node" ? `Hostname=${labelValue(s.hostname)}` : `UUID=${labelValue(s.uuid)}`);

/** Named DCGM queries; MIG instances carry GPU_I_ID, whole GPUs have it empty. */
export const dcgmQueries = {
  grEngine: (s: DcgmScope) => `DCGM_FI_PROF_GR_ENGINE_ACTIVE{${selector(s)}}`,
  util: (s: DcgmScope) => `DCGM_FI_DEV_GPU_UTIL{${selector(s)},GPU_I_ID=""}`,
  fbUsed: (s: DcgmScope) => `DCGM_FI_DEV_FB_USED{${selector(s)}}`,
  fbFree: (s: DcgmScope) => `DCGM_FI_DEV_FB_FREE{${selector(s)}}`,
  power: (s: DcgmScope) => `DCGM_FI_DEV_POWER_USAGE{${selector(s)},GPU_I_ID=""}`,
  temp: (s: DcgmScope) => `DCGM_FI_DEV_GPU_TEMP{${selector(s)},GPU_I_ID=""}`,
  smClock: (s: DcgmScope) => `DCGM_FI_DEV_SM_CLOCK{${selector(s)},GPU_I_ID=""}`,
  xid: (s: DcgmScope) => `DCGM_FI_DEV_XID_ERRORS{${selector(s)},GPU_I_ID=""}`,
} as const;

/** Names a series: on a node page by GPU index, on a GPU page the whole GPU or its MIG instance. */
export function deviceName(scope: DcgmScope["kind"], l: Record<string, string>): string {
  const mig = l.GPU_I_ID ? `${l.GPU_I_PROFILE ?? "MIG"} #${l.GPU_I_ID}` : null;
  if (scope === "node") return mig ? `GPU ${l.gpu ?? "?"} · ${mig}` : `GPU ${l.gpu ?? "?"}`;
  return mig ? `MIG ${mig}` : "GPU";
}

/**
 * XID errors as events: dcgm-exporter's gauge holds the last XID code, so an event is a step where
 * it changes to a non-zero code (or already holds one when the range starts).
 */
export function xidEvents(m: PromMatrix, name: (l: Record<string, string>) => string): XidEvent[] {
  const events: XidEvent[] = [];
  for (const r of m.result) {
    let prev: number | null = null;
    for (const [ts, v] of r.values) {
      const code = Number(v);
      if (!Number.isFinite(code)) continue;
      if (code > 0 && code !== prev) events.push({ t: Math.round(ts * 1000), xid: code, device: name(r.metric) });
      prev = code;
    }
  }
  return events.sort((a, b) => a.t - b.t);
}

/** DCGM time series of a node or a GPU, with XID errors as events; says so when Prometheus is off. */
export async function gpuCharts({ prometheus }: { prometheus: PrometheusClient }, input: { scope: DcgmScope; range: RangeName; now?: number }) {
  const { scope } = input;
  const step = stepFor(input.range);
  const end = Math.floor((input.now ?? prometheus.now()) / 1000);
  const start = end - RANGES[input.range];
  const grid = { start: Math.floor(start / step) * step, end: Math.floor(end / step) * step, step };
  const name = (l: Record<string, string>) => deviceName(scope.kind, l);
  const range = (query: string) => prometheus.queryRange(query, start, end, step);
  const chart = async (id: string, title: string, unit: GpuChart["unit"], query: string, scale = 1): Promise<GpuChart> => ({ id, title, unit, ...matrixToRows(await range(query), grid, name, scale) });
  try {
    const [charts, xid] = await Promise.all([
      Promise.all([
        chart("gr", "GR engine active", "%", dcgmQueries.grEngine(scope), 100),
        chart("util", "GPU utilization", "%", dcgmQueries.util(scope)),
        chart("fbUsed", "Framebuffer used", "MiB", dcgmQueries.fbUsed(scope)),
        chart("fbFree", "Framebuffer free", "MiB", dcgmQueries.fbFree(scope)),
        chart("power", "Power", "W", dcgmQueries.power(scope)),
        chart("temp", "Temperature", "°C", dcgmQueries.temp(scope)),
        chart("sm", "SM clock", "MHz", dcgmQueries.smClock(scope)),
      ]),
      range(dcgmQueries.xid(scope)),
    ]);
    // Which GPUs the scope covers, read off the series themselves (labels of dcgm-exporter).
    const devices = new Map<string, { uuid: string; gpu: string; modelName: string; hostname: string }>();
    for (const s of xid.result) if (s.metric.UUID) devices.set(s.metric.UUID, { uuid: s.metric.UUID, gpu: s.metric.gpu ?? "?", modelName: s.metric.modelName ?? "", hostname: s.metric.Hostname ?? "" });
    return { available: true as const, range: input.range, step, charts, xidEvents: xidEvents(xid, name), devices: [...devices.values()].sort((a, b) => Number(a.gpu) - Number(b.gpu)) };
  } catch (e) {
    if (isMetricsUnavailable(e)) return { available: false as const, reason: e.message };
    throw e;
  }
}
