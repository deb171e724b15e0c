import { Prisma, type PrismaClient } from "../db/generated/client.ts";
import { markDayDirty } from "./daily.ts";
import { inForce } from "../shared/dated.ts";
import type { PrometheusClient } from "../metrics/prometheus-client.ts";
import { energyPrice, gpuEnergyKwh, overheadAt, storageHourCost } from "../finops/overheads.ts";

const D = Prisma.Decimal;
type Decimal = Prisma.Decimal;
const HOUR = 3_600_000;

/** A MIG instance's share of its GPU: its compute slices out of 7 ("3g.40gb" → 3/7). */
export function migShare(profile: string): Decimal {
  const slices = Number(/^(\d)g\./.exec(profile)?.[1] ?? NaN);
  if (!Number.isInteger(slices) || slices < 1 || slices > 7) throw new Error(`not a MIG profile: ${profile}`);
  return new D(slices).div(7);
}

export interface Holding {
  endpointId: string;
  /** The device it held: a GPU id, or a CPU node id. */
  deviceId: string;
  kind: "gpu" | "cpu";
  /** Share of the device: 1 for a whole GPU, slices/7 for a MIG instance; CPU replicas split their node. */
  share: Decimal;
  from: number;
  to: number;
}

export interface Device {
  id: string;
  kind: "gpu" | "cpu";
  /** Cost of one hour of the whole device. */
  perHour: Decimal;
  /** A server the user runs (an external replica's GPUs): only the hours it served count, none is idle. */
  unowned?: boolean;
  /** A GPU's UUID, as its DCGM series are labelled. */
  uuid?: string;
  /** The GPU's energy in the hour (its DCGM counter) and what it cost (× PUE × price); absent: no reading. */
  energy?: { kwh: Decimal; cost: Decimal };
}

/** An hour's share of one subject (an endpoint, or the idle remainder). */
export interface HourShare {
  deviceHours: Decimal;
  cost: Decimal;
  energyKwh: Decimal;
  energyCost: Decimal;
}
const none = (): HourShare => ({ deviceHours: new D(0), cost: new D(0), energyKwh: new D(0), energyCost: new D(0) });

/**
 * Splits one hour of every device's cost between the endpoints whose replicas held it and the
 * idle remainder. A GPU's cost goes to its holders by share × time held; a CPU node's hour is
 * split among the replicas on it in proportion to their time there; what no one held is idle.
 * A GPU's energy is shared the same way as its time (a MIG instance's slices, a group's GPUs).
 */
export function splitHourCost(hourStart: number, devices: Device[], holdings: Holding[]): { byEndpoint: Map<string, HourShare>; idle: HourShare } {
  const end = hourStart + HOUR;
  const byEndpoint = new Map<string, HourShare>();
  const idle = none();
  const into = (to: HourShare, dev: Device, hours: Decimal) => {
    to.deviceHours = to.deviceHours.add(hours);
    to.cost = to.cost.add(dev.perHour.mul(hours));
    if (dev.energy) {
      to.energyKwh = to.energyKwh.add(dev.energy.kwh.mul(hours));
      to.energyCost = to.energyCost.add(dev.energy.cost.mul(hours));
    }
  };
  const add = (endpointId: string, dev: Device, hours: Decimal) => {
    const cur = byEndpoint.get(endpointId) ?? none();
    into(cur, dev, hours);
    byEndpoint.set(endpointId, cur);
  };
  for (const dev of devices) {
    const held = holdings
      .filter((h) => h.deviceId === dev.id)
      .map((h) => ({ ...h, fraction: new D(Math.max(0, Math.min(end, h.to) - Math.max(hourStart, h.from))).div(HOUR) }))
      .filter((h) => h.fraction.gt(0));
    let used = new D(0);
    if (dev.kind === "gpu") {
      for (const h of held) {
        const hours = h.share.mul(h.fraction);
        used = used.add(hours);
        add(h.endpointId, dev, hours);
      }
    } else {
      // A CPU node is shared by its replicas: each gets its part of the time it was there.
      const total = held.reduce((s, h) => s.add(h.fraction), new D(0));
      const busy = D.min(1, held.length ? D.max(...held.map((h) => h.fraction)) : 0);
      for (const h of held) {
        const hours = busy.mul(h.fraction).div(total);
        used = used.add(hours);
        add(h.endpointId, dev, hours);
      }
    }
    into(idle, dev, dev.unowned ? new D(0) : D.max(0, new D(1).sub(used)));
  }
  return { byEndpoint, idle };
}

/** The rate in force at `at` for each key. */
const rateAt = (rates: { kind: string; key: string; perHour: Decimal; effectiveFrom: Date }[], kind: string, key: string, at: number): Decimal | null =>
  inForce(rates, at, (r) => r.kind === kind && r.key === key)?.perHour ?? null;

/** The devices with a rate at `hour` and the replicas' holdings of them during it. */
export async function costInputs(db: PrismaClient, hour: Date, now = Date.now()): Promise<{ devices: Device[]; holdings: Holding[] }> {
  const start = hour.getTime();
  const end = start + HOUR;
  const [nodes, rates, replicas, externals] = await Promise.all([
    db.node.findMany({ include: { gpus: { include: { migInstances: true } } } }),
    db.hardwareRate.findMany(),
    db.replica.findMany({
      where: { driver: { not: "external" }, nodeId: { not: null }, createdAt: { lt: new Date(end) }, OR: [{ stoppedAt: null }, { stoppedAt: { gt: hour } }] },
      include: { endpointVersion: { select: { endpointId: true } }, gpus: { select: { gpuId: true } } },
    }),
    db.replica.findMany({
      where: { driver: "external", gpuModel: { not: null }, createdAt: { lt: new Date(end) }, OR: [{ stoppedAt: null }, { stoppedAt: { gt: hour } }] },
      include: { endpointVersion: { select: { endpointId: true } } },
    }),
  ]);
  const devices: Device[] = [];
  const profiles = new Map<string, string>();
  for (const n of nodes) {
    if (n.gpus.length === 0) {
      const perHour = rateAt(rates, "cpu", n.hostname, start);
      if (perHour) devices.push({ id: n.id, kind: "cpu", perHour });
      continue;
    }
    for (const g of n.gpus) {
      const perHour = rateAt(rates, "gpu", g.modelName, start);
      if (perHour) devices.push({ id: g.id, kind: "gpu", perHour, uuid: g.uuid });
      for (const m of g.migInstances) profiles.set(`${g.id}:${m.startSlot}`, m.profile);
    }
  }
  // When a replica held its devices: from its start to its stop; a failed one until it failed (its last update).
  const held = (r: { createdAt: Date; stoppedAt: Date | null; updatedAt: Date; state: string; endpointVersion: { endpointId: string } }) => ({
    endpointId: r.endpointVersion.endpointId,
    from: r.createdAt.getTime(),
    to: r.stoppedAt?.getTime() ?? (r.state === "failed" ? r.updatedAt.getTime() : Math.min(now, end)),
  });
  const holdings: Holding[] = replicas.flatMap((r): Holding[] => {
    const base = held(r);
    if (!r.gpuId) return [{ ...base, deviceId: r.nodeId!, kind: "cpu" as const, share: new D(1) }];
    const profile = r.migStartSlot !== null ? profiles.get(`${r.gpuId}:${r.migStartSlot}`) : undefined;
    if (profile) return [{ ...base, deviceId: r.gpuId, kind: "gpu" as const, share: migShare(profile) }];
    // A tensor/pipeline-parallel group holds every one of its GPUs whole: TP 4 is four GPU-hours an hour.
    const gpuIds = r.gpus.length ? r.gpus.map((g) => g.gpuId) : [r.gpuId];
    return gpuIds.map((deviceId) => ({ ...base, deviceId, kind: "gpu" as const, share: new D(1) }));
  });
  // External servers that said their GPUs: each counts tensorParallel × pipelineParallel GPU-hours an hour at its model's rate.
  for (const r of externals) {
    const perHour = r.gpuModel ? rateAt(rates, "gpu", r.gpuModel, start) : null;
    if (!perHour) continue;
    devices.push({ id: `external:${r.id}`, kind: "gpu", perHour, unowned: true });
    holdings.push({ ...held(r), deviceId: `external:${r.id}`, kind: "gpu", share: new D(r.tensorParallel * r.pipelineParallel) });
  }
  return { devices, holdings };
}

/**
 * Computes and stores one hour's infrastructure cost (CostHour rows: one per endpoint, one
 * "idle"), from the replicas that held devices during it and the admin's hardware rates, with the
 * GPUs' energy (their DCGM counters in Prometheus, at the energy price × PUE) shared as their time
 * is, and the storage of the model weights each endpoint serves. Devices without a rate cost
 * nothing (and the cost page says which have none).
 */
export async function computeCostHour(db: PrismaClient, hour: Date, now = Date.now(), opts: { prometheus?: PrometheusClient } = {}): Promise<void> {
  const start = hour.getTime();
  const [{ devices, holdings }, overheads, kwh] = await Promise.all([costInputs(db, hour, now), db.costOverhead.findMany(), gpuEnergyKwh(opts.prometheus, start, now)]);
  const price = energyPrice(overheadAt(overheads, "energy", start)) ?? new D(0);
  for (const d of devices) {
    const reading = d.uuid ? kwh?.get(d.uuid) : undefined;
    if (reading) d.energy = { kwh: reading, cost: reading.mul(price) };
  }
  const { byEndpoint, idle } = splitHourCost(start, devices, holdings);
  const storage = await storageHourCost(db, start, overheadAt(overheads, "storage", start)?.amount ?? null);
  const subjects = new Map([...byEndpoint, ["idle", idle] as const]);
  for (const key of storage.keys()) if (!subjects.has(key)) subjects.set(key, { deviceHours: new D(0), cost: new D(0), energyKwh: new D(0), energyCost: new D(0) });
  await db.$transaction([
    db.costHour.deleteMany({ where: { hour } }),
    db.costHour.createMany({
      data: [...subjects].map(([subject, v]) => ({ hour, subject, deviceHours: v.deviceHours, cost: v.cost, energyKwh: kwh ? v.energyKwh : null, energyCost: v.energyCost, storageCost: storage.get(subject) ?? 0 })),
    }),
    markDayDirty(db, hour),
  ]);
}

/** Computes the current hour and any of the last `backfillHours` not computed after they ended. */
export async function computeRecentCosts(db: PrismaClient, now = Date.now(), backfillHours = 48, opts: { prometheus?: PrometheusClient } = {}): Promise<Date[]> {
  const current = Math.floor(now / HOUR) * HOUR;
  const done = await db.costHour.findMany({ where: { subject: "idle", hour: { gte: new Date(current - backfillHours * HOUR) } }, select: { hour: true, computedAt: true } });
  const final = new Set(done.filter((d) => d.computedAt.getTime() >= d.hour.getTime() + HOUR).map((d) => d.hour.getTime()));
  const computed: Date[] = [];
  for (let h = current - backfillHours * HOUR; h <= current; h += HOUR) {
    if (final.has(h)) continue;
    await computeCostHour(db, new Date(h), now, opts);
    computed.push(new Date(h));
  }
  return computed;
}
