/**
 * NVIDIA MIG geometry for drawing and editing layouts: 8 memory slots per GPU, each profile a run
 * of slots from one of its allowed starts. Only names and shapes live here; the server checks a
 * layout (overlaps, compute slices, busy GPU) and the page shows its answer.
 */
const SHAPES = [
  { g: "1g", memorySlots: 1, starts: [0, 1, 2, 3, 4, 5, 6] },
  { g: "1g", memorySlots: 2, starts: [0, 2, 4, 6] },
  { g: "2g", memorySlots: 2, starts: [0, 2, 4] },
  { g: "3g", memorySlots: 4, starts: [0, 4] },
  { g: "4g", memorySlots: 4, starts: [0] },
  { g: "7g", memorySlots: 8, starts: [0] },
];

export const MIG_SLOTS = 8;

export interface ClientMigProfile {
  name: string;
  memorySlots: number;
  starts: number[];
}

/** The profiles of a card, named by memory per slot (an 80 GB card: 1g.10gb … 7g.80gb). */
export function profilesFor(gpuMemoryGiB: number): ClientMigProfile[] {
  const slotGb = Math.round(gpuMemoryGiB / MIG_SLOTS);
  return SHAPES.map((s) => ({ name: `${s.g}.${s.memorySlots * slotGb}gb`, memorySlots: s.memorySlots, starts: s.starts }));
}

/** Memory slots an instance of `profile` spans on this card (1 when the name is unknown). */
export function memorySlotsOf(gpuMemoryGiB: number, profile: string): number {
  return profilesFor(gpuMemoryGiB).find((p) => p.name === profile)?.memorySlots ?? 1;
}
