/**
 * NVIDIA MIG geometry (see the brief's facts.md): 7 compute slices and 8 memory slots per GPU.
 * An instance takes a run of memory slots from one of its allowed start slots; instances may not
 * overlap and their compute slices add up to at most 7.
 */
export interface MigProfile {
  name: string;
  compute: number;
  memorySlots: number;
  starts: number[];
  maxPerGpu: number;
}

const SHAPES = [
  { g: "1g", compute: 1, memorySlots: 1, starts: [0, 1, 2, 3, 4, 5, 6], maxPerGpu: 7 },
  { g: "1g", compute: 1, memorySlots: 2, starts: [0, 2, 4, 6], maxPerGpu: 4 },
  { g: "2g", compute: 2, memorySlots: 2, starts: [0, 2, 4], maxPerGpu: 3 },
  { g: "3g", compute: 3, memorySlots: 4, starts: [0, 4], maxPerGpu: 2 },
  { g: "4g", compute: 4, memorySlots: 4, starts: [0], maxPerGpu: 1 },
  { g: "7g", compute: 7, memorySlots: 8, starts: [0], maxPerGpu: 1 },
] as const;

/** Profiles of a MIG-capable card, named by its memory per slot (80 GB card: 10 GB a slot). */
export function migProfiles(gpuMemoryGb: number): MigProfile[] {
  const slotGb = Math.round(gpuMemoryGb / 8);
  return SHAPES.map((s) => ({
    name: `${s.g}.${s.memorySlots * slotGb}gb`,
    compute: s.compute,
    memorySlots: s.memorySlots,
    starts: [...s.starts],
    maxPerGpu: s.maxPerGpu,
  }));
}

/** Cards that support MIG. L40S and other PCIe graphics-class cards do not. */
export function supportsMig(modelName: string): boolean {
  return /\b(A100|A30|H100|H200|H20|B200|GB200)\b/.test(modelName);
}

export interface MigInstanceSpec {
  profile: string;
  startSlot: number;
}

/** Problems with a layout, in words an operator can act on; empty = valid. */
export function validateMigLayout(gpuMemoryGb: number, layout: MigInstanceSpec[]): string[] {
  const profiles = new Map(migProfiles(gpuMemoryGb).map((p) => [p.name, p]));
  const errors: string[] = [];
  const used = new Array<string | null>(8).fill(null);
  let compute = 0;
  const perProfile = new Map<string, number>();
  for (const inst of layout) {
    const p = profiles.get(inst.profile);
    if (!p) {
      errors.push(`${inst.profile} is not a profile of this GPU (${[...profiles.keys()].join(", ")})`);
      continue;
    }
    if (!p.starts.includes(inst.startSlot)) errors.push(`${p.name} can start only at slot ${p.starts.join(", ")}, not ${inst.startSlot}`);
    perProfile.set(p.name, (perProfile.get(p.name) ?? 0) + 1);
    if (perProfile.get(p.name)! > p.maxPerGpu) errors.push(`at most ${p.maxPerGpu} × ${p.name} per GPU`);
    compute += p.compute;
    for (let s = inst.startSlot; s < inst.startSlot + p.memorySlots; s++) {
      if (s > 7) {
        errors.push(`${p.name} at slot ${inst.startSlot} runs past the last memory slot`);
        break;
      }
      if (used[s]) errors.push(`${p.name} at slot ${inst.startSlot} overlaps ${used[s]} on memory slot ${s}`);
      used[s] = `${p.name}@${inst.startSlot}`;
    }
  }
  if (compute > 7) errors.push(`the instances need ${compute} compute slices, more than a GPU's 7`);
  return [...new Set(errors)];
}

/** Memory of one instance in bytes: its memory slots' share of the card. */
export function migInstanceMemoryBytes(gpuMemoryBytes: number, profileName: string): number {
  const p = migProfiles(gpuMemoryBytes / 2 ** 30).find((x) => x.name === profileName);
  return p ? Math.floor((gpuMemoryBytes / 8) * p.memorySlots) : 0;
}

export function migComputeSlices(profileName: string): number {
  return Number(/^(\d)g\./.exec(profileName)?.[1] ?? 0);
}
