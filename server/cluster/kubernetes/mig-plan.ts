import yaml from "js-yaml";
import { migProfiles, validateMigLayout, type MigInstanceSpec } from "../mig.ts";

/** One entry of a mig-parted layout (the GPU Operator's MIG manager config format). */
export interface MigDeviceGroup {
  devices: "all" | number[];
  "mig-enabled": boolean;
  "mig-devices"?: Record<string, number>;
}

export interface MigPartedConfig {
  version: string;
  "mig-configs": Record<string, MigDeviceGroup[]>;
}

/** Instances per profile, the only thing mig-parted is told about a GPU. */
export function profileCounts(layout: MigInstanceSpec[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of layout) counts[m.profile] = (counts[m.profile] ?? 0) + 1;
  return counts;
}

/**
 * Where a MIG manager puts instances given only their counts: the largest first, each at the
 * lowest start slot it may use that is still free. Null when they do not fit one GPU.
 */
export function canonicalPlacement(gpuMemoryGb: number, counts: Record<string, number>): MigInstanceSpec[] | null {
  const profiles = new Map(migProfiles(gpuMemoryGb).map((p) => [p.name, p]));
  const wanted = Object.entries(counts).flatMap(([name, n]) => Array.from({ length: n }, () => profiles.get(name)));
  if (wanted.some((p) => !p)) return null;
  const ordered = (wanted as NonNullable<(typeof wanted)[number]>[]).sort((a, b) => b.compute - a.compute || b.memorySlots - a.memorySlots);
  const used = new Array<boolean>(8).fill(false);
  const out: MigInstanceSpec[] = [];
  for (const p of ordered) {
    const start = p.starts.find((s) => s + p.memorySlots <= 8 && used.slice(s, s + p.memorySlots).every((u) => !u));
    if (start === undefined) return null;
    for (let s = start; s < start + p.memorySlots; s++) used[s] = true;
    out.push({ profile: p.name, startSlot: start });
  }
  return validateMigLayout(gpuMemoryGb, out).length ? null : out.sort((a, b) => a.startSlot - b.startSlot);
}

const key = (l: MigInstanceSpec[]) =>
  [...l]
    .sort((a, b) => a.startSlot - b.startSlot)
    .map((m) => `${m.profile}@${m.startSlot}`)
    .join(", ");

/**
 * Why a MIG manager cannot produce `layout` on a GPU, or null when it can. mig-parted takes a
 * count per profile and chooses the slots itself, so a layout is expressible only when its slots
 * are the ones the manager would choose.
 */
export function inexpressible(gpuMemoryGb: number, layout: MigInstanceSpec[]): string | null {
  if (layout.length === 0) return null;
  const placed = canonicalPlacement(gpuMemoryGb, profileCounts(layout));
  if (!placed) return "the GPU Operator's MIG manager cannot fit these instances on one GPU";
  if (key(placed) === key(layout)) return null;
  return `the GPU Operator's MIG manager chooses the slots itself (largest instance first, lowest free slot): it would lay these out as ${key(placed)}, not ${key(layout)}. Choose those slots.`;
}

/** A node's per-GPU layouts as one mig-parted config entry: GPUs with the same layout share a group. */
export function toMigParted(layouts: MigInstanceSpec[][]): MigDeviceGroup[] {
  const groups = new Map<string, MigDeviceGroup & { devices: number[] }>();
  layouts.forEach((layout, index) => {
    const counts = profileCounts(layout);
    const k = JSON.stringify(Object.entries(counts).sort());
    const g = groups.get(k) ?? { devices: [], "mig-enabled": layout.length > 0, ...(layout.length ? { "mig-devices": counts } : {}) };
    g.devices.push(index);
    groups.set(k, g);
  });
  return [...groups.values()];
}

/** The per-GPU layouts a mig-parted entry gives a node of `gpuCount` GPUs, placed as its manager would. */
export function fromMigParted(groups: MigDeviceGroup[], gpuCount: number, gpuMemoryGb: number): MigInstanceSpec[][] {
  const out: MigInstanceSpec[][] = Array.from({ length: gpuCount }, () => []);
  for (const g of groups) {
    const devices = g.devices === "all" ? [...out.keys()] : g.devices;
    const layout = g["mig-enabled"] ? (canonicalPlacement(gpuMemoryGb, g["mig-devices"] ?? {}) ?? []) : [];
    for (const d of devices) if (d >= 0 && d < gpuCount) out[d] = layout.map((m) => ({ ...m }));
  }
  return out;
}

export function parseMigParted(text: string): MigPartedConfig {
  const doc = yaml.load(text) as MigPartedConfig | undefined;
  if (!doc || typeof doc !== "object" || typeof doc["mig-configs"] !== "object" || doc["mig-configs"] === null) throw new Error("the mig-parted config has no mig-configs");
  return doc;
}

export function dumpMigParted(config: MigPartedConfig): string {
  return yaml.dump(config, { lineWidth: -1, flowLevel: 3 });
}

/**
 * Instances a node advertises (mixed strategy: one resource per profile), spread over its MIG GPUs
 * the way a manager would have laid them out: used when the config behind them is unknown.
 */
export function inferLayouts(gpuCount: number, wholeGpus: number, instances: Record<string, number>, gpuMemoryGb: number): MigInstanceSpec[][] {
  const out: MigInstanceSpec[][] = Array.from({ length: gpuCount }, () => []);
  const migGpus = Math.max(0, gpuCount - wholeGpus);
  const left = { ...instances };
  for (let i = gpuCount - migGpus; i < gpuCount; i++) {
    const counts: Record<string, number> = {};
    for (const [profile] of Object.entries(left).sort((a, b) => Number(b[0][0]) - Number(a[0][0]))) {
      while ((left[profile] ?? 0) > 0 && canonicalPlacement(gpuMemoryGb, { ...counts, [profile]: (counts[profile] ?? 0) + 1 })) {
        counts[profile] = (counts[profile] ?? 0) + 1;
        left[profile]!--;
      }
    }
    out[i] = canonicalPlacement(gpuMemoryGb, counts) ?? [];
  }
  return out;
}
