/**
 * Fragmentation of group placement, counted: random streams of group replicas (1, 2, 4 and 8
 * GPUs) arrive on a pool of 8-GPU nodes until one is refused. A refusal counts as fragmentation
 * when the replicas already placed and the refused one could all have fitted had earlier choices
 * been different: with sizes that are powers of two dividing the node, first-fit decreasing packs
 * optimally, so "FFD fits" is exactly "a better choice existed". Kule's placer
 * (server/cluster/group-placement.ts) against the spreading one a scheduler uses by default
 * (Kubernetes' NodeResourcesFit LeastAllocated: the node with the most free GPUs) on the same streams.
 */
import { chooseGroup, type NodeFree } from "../server/cluster/group-placement.ts";

const GiB = 2 ** 30;
const SIZES = [1, 1, 1, 2, 2, 4, 4, 8];

/** A seeded generator (mulberry32), so a run's streams can be replayed. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whether replicas of these sizes fit nodes of `perNode` GPUs at all (first-fit decreasing). */
export function ffdFits(sizes: number[], nodes: number, perNode: number): boolean {
  const free = Array<number>(nodes).fill(perNode);
  for (const s of [...sizes].sort((a, b) => b - a)) {
    const i = free.findIndex((f) => f >= s);
    if (i < 0) return false;
    free[i]! -= s;
  }
  return true;
}

type Placer = (nodes: NodeFree[], size: number) => string[] | null;

export const kulePlacer: Placer = (nodes, size) => {
  const c = chooseGroup(nodes, { tensor: size, pipeline: 1 }, GiB);
  return c.ok ? c.stages.flatMap((s) => s.gpus.map((g) => g.id)) : null;
};

export const spreadPlacer: Placer = (nodes, size) => {
  const n = [...nodes].sort((a, b) => b.free.length - a.free.length).find((x) => x.free.length >= size);
  return n ? n.free.slice(0, size).map((g) => g.id) : null;
};

/** Runs `streams` random streams through a placer; counts refusals a better choice would have avoided. */
export function fragmentationRuns(placer: Placer, opts: { streams: number; nodes: number; perNode: number; seed: number }) {
  const random = rng(opts.seed);
  let refusals = 0;
  let avoidable = 0;
  let placed = 0;
  for (let s = 0; s < opts.streams; s++) {
    let nodes: NodeFree[] = Array.from({ length: opts.nodes }, (_, i) => ({
      nodeId: `n${i}`,
      hostname: `node-${String(i + 1).padStart(2, "0")}`,
      region: "tr-ist",
      free: Array.from({ length: opts.perNode }, (_, index) => ({ id: `n${i}/${index}`, index, memoryBytes: 80 * GiB, modelName: "NVIDIA H100 80GB HBM3", nvlinkDomain: 0 })),
    }));
    const sizes: number[] = [];
    for (;;) {
      const size = SIZES[Math.floor(random() * SIZES.length)]!;
      const got = placer(nodes, size);
      if (!got) {
        refusals++;
        if (ffdFits([...sizes, size], opts.nodes, opts.perNode)) avoidable++;
        break;
      }
      placed++;
      sizes.push(size);
      const taken = new Set(got);
      nodes = nodes.map((n) => ({ ...n, free: n.free.filter((g) => !taken.has(g.id)) }));
    }
  }
  return { streams: opts.streams, placed, refusals, fragmentation_refusals: avoidable };
}
