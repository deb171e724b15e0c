import yaml from "js-yaml";

/** One entry of a mig-parted layout: which GPUs, whether MIG is on, and the instances per GPU. */
export interface MigDeviceGroup {
  devices: "all" | number[];
  "mig-enabled": boolean;
  "mig-devices"?: Record<string, number>;
}

export interface MigPartedConfig {
  version: string;
  "mig-configs": Record<string, MigDeviceGroup[]>;
}

/** What a layout leaves on a node: whole GPUs and MIG instances per profile. */
export interface MigLayoutTotals {
  wholeGpus: number;
  instances: Record<string, number>;
}

const PROFILE = /^(\d)g\.(\d+)gb(\+me)?$/;

export function parseMigPartedConfig(text: string): MigPartedConfig {
  const doc = yaml.load(text) as MigPartedConfig | undefined;
  if (!doc || typeof doc !== "object" || typeof doc["mig-configs"] !== "object") throw new Error("the mig-parted config has no mig-configs");
  return doc;
}

/**
 * Totals of layout `name` on a node with `gpuCount` GPUs; throws with the reason mig-parted
 * would give when the layout is unknown, names a GPU the node lacks, or overfills a GPU's seven
 * compute slices.
 */
export function layoutTotals(config: MigPartedConfig, name: string, gpuCount: number): MigLayoutTotals {
  const groups = config["mig-configs"][name];
  if (!groups) throw new Error(`unable to find config "${name}" in the mig-parted config`);
  const mig = new Map<number, Record<string, number>>();
  const plain = new Set<number>(Array.from({ length: gpuCount }, (_, i) => i));
  for (const g of groups) {
    const devices = g.devices === "all" ? [...Array(gpuCount).keys()] : g.devices;
    for (const d of devices) {
      if (d < 0 || d >= gpuCount) throw new Error(`device ${d} does not exist on a node with ${gpuCount} GPUs`);
      if (!g["mig-enabled"]) {
        mig.delete(d);
        plain.add(d);
        continue;
      }
      const slices = Object.entries(g["mig-devices"] ?? {}).reduce((n, [profile, count]) => {
        const m = PROFILE.exec(profile);
        if (!m) throw new Error(`invalid MIG profile "${profile}"`);
        return n + Number(m[1]) * count;
      }, 0);
      if (slices > 7) throw new Error(`MIG devices for GPU ${d} need ${slices} compute slices; a GPU has 7`);
      mig.set(d, { ...g["mig-devices"] });
      plain.delete(d);
    }
  }
  const instances: Record<string, number> = {};
  for (const perGpu of mig.values()) for (const [p, n] of Object.entries(perGpu)) instances[p] = (instances[p] ?? 0) + n;
  return { wholeGpus: plain.size, instances };
}
