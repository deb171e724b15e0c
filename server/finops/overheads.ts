import { Prisma, type CostOverhead, type PrismaClient } from "../db/generated/client.ts";
import type { PrometheusClient } from "../metrics/prometheus-client.ts";
import { gpuEnergyQuery } from "../metrics/gpu-charts.ts";
import { inForce } from "../shared/dated.ts";

const D = Prisma.Decimal;
type Decimal = Prisma.Decimal;
const HOUR = 3_600_000;
const MJ_PER_KWH = 3.6e9;
const GB = 1e9;

export type OverheadKind = CostOverhead["kind"];

/** The row of `kind` in force at `at`, read as hardware rates are (server/shared/dated.ts). */
export const overheadAt = (rows: CostOverhead[], kind: OverheadKind, at: number): CostOverhead | null => inForce(rows, at, (r) => r.kind === kind);

/** What one kWh the GPUs draw costs the facility: the price times the PUE (cooling, power conversion). */
export function energyPrice(row: CostOverhead | null): Decimal | null {
  return row ? row.amount.mul(row.pue ?? 1) : null;
}

/** The hours of the calendar month holding `at`: a GB-month's price is spread over them. */
export function hoursInMonth(at: number): number {
  const d = new Date(at);
  return (Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)) / HOUR;
}

/**
 * Each GPU's kWh (by UUID) in the hour from `hourStart`, up to `now` while it runs, from its own
 * DCGM energy counter in Prometheus; null when no Prometheus answers or the hour has under a
 * minute in it (the cost pages then say energy has no reading, rather than show 0 kWh).
 */
export async function gpuEnergyKwh(prometheus: PrometheusClient | undefined, hourStart: number, now: number): Promise<Map<string, Decimal> | null> {
  const until = Math.min(now, hourStart + HOUR);
  if (!prometheus?.baseUrl || until - hourStart < 60_000) return null;
  try {
    const rows = await prometheus.query(gpuEnergyQuery((until - hourStart) / 1000), until);
    if (rows.length === 0) return null;
    return new Map(rows.filter((r) => r.metric.UUID && Number.isFinite(Number(r.value[1]))).map((r) => [r.metric.UUID!, new D(r.value[1]).div(MJ_PER_KWH)]));
  } catch {
    return null;
  }
}

/**
 * The hour's storage of model weights at `perGbMonth`: each version's weights go to the endpoints
 * serving it (split between them), and versions on no endpoint are the platform's ("idle").
 */
export async function storageHourCost(db: PrismaClient, hourStart: number, perGbMonth: Decimal | null): Promise<Map<string, Decimal>> {
  const out = new Map<string, Decimal>();
  if (!perGbMonth) return out;
  const perByteHour = perGbMonth.div(GB).div(hoursInMonth(hourStart));
  const versions = await db.modelVersion.findMany({ where: { createdAt: { lt: new Date(hourStart + HOUR) } }, select: { weightBytes: true, endpointVersions: { select: { endpointId: true } } } });
  for (const v of versions) {
    const cost = perByteHour.mul(v.weightBytes.toString());
    const holders = [...new Set(v.endpointVersions.map((e) => e.endpointId))];
    if (holders.length === 0) out.set("idle", (out.get("idle") ?? new D(0)).add(cost));
    for (const e of holders) out.set(e, (out.get(e) ?? new D(0)).add(cost.div(holders.length)));
  }
  return out;
}
