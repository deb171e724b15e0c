import { matrixToRows, type ChartRow, type PromMatrix } from "./adapters.ts";
import { labelValue, RANGES, stepFor, type RangeName } from "./promql.ts";
import { type PrometheusClient, isMetricsUnavailable } from "./prometheus-client.ts";
import type { GpuChartId } from "./chart-keys.ts";
import type { PrismaClient } from "../db/generated/client.ts";
import { NotFoundError } from "../errors.ts";

/**
 * A node (dcgm-exporter's `hostname`, `Hostname` before 4.6.0), one GPU (`UUID`) with its MIG
 * instances, or the GPUs of one group replica (tensor/pipeline parallel), read together.
 */
export type DcgmScope = { kind: "node"; hostname: string } | { kind: "gpu"; uuid: string } | { kind: "group"; uuids: string[] };

export interface GpuChart {
  /** Its title's key in the messages (metrics.chart.gpu). */
  id: GpuChartId;
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

/**
 * A dcgm-exporter metric in a scope, with more matchers. A node's series carry `hostname` since
 * dcgm-exporter 4.6.0 and `Hostname` before: a node scope selects either (one `or`, one query).
 */
function pick(metric: string, s: DcgmScope, extra = ""): string {
  const more = extra ? `,${extra}` : "";
  if (s.kind === "gpu") return `${metric}{UUID=${labelValue(s.uuid)}${more}}`;
  if (s.kind === "group") return `${metric}{UUID=~${labelValue(s.uuids.map((u) => u.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"))}${more}}`;
  const host = labelValue(s.hostname);
  return `(${metric}{hostname=${host}${more}} or ${metric}{Hostname=${host}${more}})`;
}

/**
 * Named DCGM queries. In dcgm-exporter's default mode a MIG-enabled GPU has only per-instance
 * series (GPU_I_ID set): device-level values (power, temperature, clocks, XID) repeat on each
 * instance, so they are read once per GPU (`max by`); DCGM_FI_DEV_GPU_UTIL does not exist on
 * instances, so an instance's utilization is its GR engine activity; framebuffer is per instance
 * and summed per GPU on a node page.
 */
/**
 * Each GPU's energy over the `seconds` before the query's time, in mJ (a device counter: repeated
 * on each MIG instance, so read once per GPU). The hourly cost reads it (server/finops/overheads.ts).
 */
export const gpuEnergyQuery = (seconds: number) => `max by (UUID) (increase(DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION[${Math.round(seconds)}s]))`;

export const dcgmQueries = {
  grEngine: (s: DcgmScope) => pick("DCGM_FI_PROF_GR_ENGINE_ACTIVE", s),
  // The `or` keeps GPU_UTIL where a whole GPU has it; dcgm-exporter 3.3.0 printed 0 for it on instances, so it is never read there.
  util: (s: DcgmScope) => `${pick("DCGM_FI_DEV_GPU_UTIL", s, 'GPU_I_ID=""')} or ${pick("DCGM_FI_PROF_GR_ENGINE_ACTIVE", s)} * 100`,
  fbUsed: (s: DcgmScope) => (s.kind === "node" ? `sum by (gpu, UUID) (${pick("DCGM_FI_DEV_FB_USED", s)})` : pick("DCGM_FI_DEV_FB_USED", s)),
  fbFree: (s: DcgmScope) => (s.kind === "node" ? `sum by (gpu, UUID) (${pick("DCGM_FI_DEV_FB_FREE", s)})` : pick("DCGM_FI_DEV_FB_FREE", s)),
  power: (s: DcgmScope) => `max by (gpu, UUID) (${pick("DCGM_FI_DEV_POWER_USAGE", s)})`,
  temp: (s: DcgmScope) => `max by (gpu, UUID) (${pick("DCGM_FI_DEV_GPU_TEMP", s)})`,
  smClock: (s: DcgmScope) => `max by (gpu, UUID) (${pick("DCGM_FI_DEV_SM_CLOCK", s)})`,
  // err_code/err_msg change with the code: folding them away keeps one line per GPU to read changes on.
  xid: (s: DcgmScope) => `max by (gpu, UUID, modelName, hostname, Hostname) (${pick("DCGM_FI_DEV_XID_ERRORS", s)})`,
} as const;

/** An aggregate over a group's GPUs, named by its `agg` label ("mean", "max", "sum"). */
const agg = (fn: "avg" | "max" | "sum", name: string, q: string) => `label_replace(${fn}(${q}), "agg", "${name}", "", "")`;

/**
 * A group replica's charts: utilization as the mean and the busiest of its GPUs, power summed
 * (what the replica draws), memory and the rest per GPU (each holds its shard).
 */
export const groupQueries = {
  ...dcgmQueries,
  util: (s: DcgmScope) => `${agg("avg", "mean", dcgmQueries.util(s))} or ${agg("max", "max", dcgmQueries.util(s))}`,
  power: (s: DcgmScope) => agg("sum", "sum", dcgmQueries.power(s)),
} as const;

/** A series' node under either spelling of dcgm-exporter's host label. */
export const hostnameOf = (l: Record<string, string>): string => l.hostname || l.Hostname || "";

/** Names a series: on a node page by GPU index, on a GPU page the whole GPU or its MIG instance. */
export function deviceName(scope: DcgmScope["kind"], l: Record<string, string>): string {
  if (scope === "group") return l.agg ?? `${hostnameOf(l)} GPU ${l.gpu ?? "?"}`;
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

/** The GPUs a replica holds, as a DCGM scope: a group's every member, or its one GPU. Another tenant's or no replica is NOT_FOUND. */
export async function replicaScope(db: PrismaClient, replicaId: string): Promise<DcgmScope> {
  const r = await db.replica.findUnique({ where: { id: replicaId }, select: { gpu: { select: { uuid: true } }, gpus: { orderBy: { rank: "asc" }, select: { gpu: { select: { uuid: true } } } } } });
  if (!r || !r.gpu) throw new NotFoundError("Replica");
  return { kind: "group", uuids: r.gpus.length ? r.gpus.map((g) => g.gpu.uuid) : [r.gpu.uuid] };
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
  const chart = async (id: GpuChartId, unit: GpuChart["unit"], query: string, scale = 1): Promise<GpuChart> => ({ id, unit, ...matrixToRows(await range(query), grid, name, scale) });
  const q = scope.kind === "group" ? groupQueries : dcgmQueries;
  try {
    const [charts, xid] = await Promise.all([
      Promise.all([
        chart("gr", "%", q.grEngine(scope), 100),
        chart("util", "%", q.util(scope)),
        chart("fbUsed", "MiB", q.fbUsed(scope)),
        chart("fbFree", "MiB", q.fbFree(scope)),
        chart("power", "W", q.power(scope)),
        chart("temp", "°C", q.temp(scope)),
        chart("sm", "MHz", q.smClock(scope)),
      ]),
      range(q.xid(scope)),
    ]);
    // Which GPUs the scope covers, read off the series themselves (labels of dcgm-exporter).
    const devices = new Map<string, { uuid: string; gpu: string; modelName: string; hostname: string }>();
    for (const s of xid.result) if (s.metric.UUID) devices.set(s.metric.UUID, { uuid: s.metric.UUID, gpu: s.metric.gpu ?? "?", modelName: s.metric.modelName ?? "", hostname: hostnameOf(s.metric) });
    return { available: true as const, range: input.range, step, charts, xidEvents: xidEvents(xid, name), devices: [...devices.values()].sort((a, b) => Number(a.gpu) - Number(b.gpu)) };
  } catch (e) {
    if (isMetricsUnavailable(e)) return { available: false as const, reason: e.why };
    throw e;
  }
}
