import { fitsDevice, gib, usableBytes, type Parallelism } from "../shared/memory-rule.ts";

/**
 * Where a tensor/pipeline-parallel replica goes: whole GPUs only (NCCL cannot span MIG
 * instances), `tensor` of them on each of `pipeline` distinct nodes. Pure, so the rules below are
 * tested apart from the database (group-placement.test.ts) and benchmarked (bench/big-models.ts).
 *
 * - NVLink first: a block whose GPUs share one NVLink/NVSwitch domain beats one that talks over PCIe.
 * - Best fit across nodes: the node left with the fewest free GPUs wins, so whole nodes stay whole
 *   for the next 8-GPU replica instead of every node losing a few.
 * - Buddy alignment inside a node: TP 2 takes GPUs 0–1, 2–3…, TP 4 takes 0–3 or 4–7, so the free
 *   GPUs left stay in aligned blocks (a TP 4 at 2–5 would leave no room for another TP 4).
 */
export interface FreeGpu {
  id: string;
  index: number;
  memoryBytes: number;
  modelName: string;
  /** GPUs with the same domain are joined by NVLink/NVSwitch; null: PCIe only. */
  nvlinkDomain: number | null;
}

export interface NodeFree {
  nodeId: string;
  hostname: string;
  region: string;
  /** Whole GPUs with nothing on them, on a ready, uncordoned node. */
  free: FreeGpu[];
  /** The node's GPU kind, for a refusal when none of them is free. */
  gpuModel?: string;
}

export interface GroupStage {
  nodeId: string;
  hostname: string;
  region: string;
  gpus: FreeGpu[];
}

export type GroupChoice = { ok: true; stages: GroupStage[] } | { ok: false; shortfall: string };

interface Candidate {
  node: NodeFree;
  gpus: FreeGpu[];
  nvlink: boolean;
  aligned: boolean;
  freeAfter: number;
  blockAfter: number;
}

const shortName = (modelName: string) => modelName.replace(/^NVIDIA\s+/, "").split(/\s+/)[0];

/** The largest aligned power-of-two block of free indices: what the node can still give one group. */
export function largestAlignedBlock(freeIndices: Set<number>, maxIndex: number): number {
  for (let size = 8; size >= 1; size /= 2) {
    for (let start = 0; start + size - 1 <= maxIndex; start += size) {
      let all = true;
      for (let i = start; i < start + size && all; i++) all = freeIndices.has(i);
      if (all) return size;
    }
  }
  return 0;
}

function blocksOf(node: NodeFree, fitting: FreeGpu[], tensor: number): Candidate[] {
  const byIndex = new Map(fitting.map((g) => [g.index, g]));
  const maxIndex = Math.max(...node.free.map((g) => g.index), 0);
  const out: Candidate[] = [];
  const score = (gpus: FreeGpu[], aligned: boolean): Candidate => {
    const left = new Set(node.free.map((g) => g.index));
    for (const g of gpus) left.delete(g.index);
    const domain = gpus[0]!.nvlinkDomain;
    return { node, gpus, aligned, nvlink: domain !== null && gpus.every((g) => g.nvlinkDomain === domain), freeAfter: left.size, blockAfter: largestAlignedBlock(left, maxIndex) };
  };
  for (let start = 0; start + tensor - 1 <= maxIndex; start += tensor) {
    const gpus = Array.from({ length: tensor }, (_, i) => byIndex.get(start + i));
    if (gpus.every(Boolean)) out.push(score(gpus as FreeGpu[], true));
  }
  if (out.length === 0 && fitting.length >= tensor) {
    // No aligned block: the first `tensor` free GPUs of one NVLink domain if there is one, else of the node.
    const domains = new Map<number | null, FreeGpu[]>();
    for (const g of fitting) domains.set(g.nvlinkDomain, [...(domains.get(g.nvlinkDomain) ?? []), g]);
    const same = [...domains.entries()].find(([d, gs]) => d !== null && gs.length >= tensor)?.[1];
    out.push(score((same ?? fitting).slice(0, tensor), false));
  }
  return out;
}

const better = (a: Candidate, b: Candidate) =>
  Number(b.nvlink) - Number(a.nvlink) || a.freeAfter - b.freeAfter || Number(b.aligned) - Number(a.aligned) || b.blockAfter - a.blockAfter || a.node.hostname.localeCompare(b.node.hostname) || a.gpus[0]!.index - b.gpus[0]!.index;

/**
 * Chooses the GPUs of one group replica: `tensor` GPUs on each of `pipeline` nodes, each GPU
 * holding `needBytes` (the memory rule's per-GPU need). Refuses with the shortfall in words.
 */
export function chooseGroup(nodes: NodeFree[], p: Parallelism, needBytes: number): GroupChoice {
  const fittingOf = (n: NodeFree) => n.free.filter((g) => fitsDevice(g.memoryBytes, needBytes)).sort((a, b) => a.index - b.index);
  const candidates = nodes.flatMap((n) => blocksOf(n, fittingOf(n), p.tensor)).sort(better);
  const stages: GroupStage[] = [];
  for (const c of candidates) {
    if (stages.length === p.pipeline) break;
    if (stages.some((s) => s.nodeId === c.node.nodeId)) continue;
    // Stages of one pipeline run one engine build: they must be the same GPU kind.
    if (stages.length && stages[0]!.gpus[0]!.modelName !== c.gpus[0]!.modelName) continue;
    stages.push({ nodeId: c.node.nodeId, hostname: c.node.hostname, region: c.node.region, gpus: c.gpus });
  }
  if (stages.length === p.pipeline) return { ok: true, stages };
  return { ok: false, shortfall: shortfallText(nodes, p, needBytes, fittingOf) };
}

function shortfallText(nodes: NodeFree[], p: Parallelism, needBytes: number, fittingOf: (n: NodeFree) => FreeGpu[]): string {
  const kinds = [...new Set(nodes.flatMap((n) => [...n.free.map((g) => g.modelName), ...(n.gpuModel ? [n.gpuModel] : [])]).map(shortName))];
  const kind = kinds.length === 1 ? kinds[0] : "GPUs";
  const ranked = nodes.map((n) => ({ n, count: fittingOf(n).length })).sort((a, b) => b.count - a.count);
  const best = ranked[0];
  const bigEnough = nodes.some((n) => n.free.some((g) => fitsDevice(g.memoryBytes, needBytes)));
  if (!bigEnough && nodes.some((n) => n.free.length)) {
    const largest = Math.max(...nodes.flatMap((n) => n.free.map((g) => g.memoryBytes)));
    return `each GPU of the group needs ${gib(needBytes)} usable; the largest free GPU has ${gib(usableBytes(largest))}`;
  }
  if (p.pipeline === 1) return `needs ${p.tensor} free ${kind} on one node; ${best && best.count ? `the best node (${best.n.hostname}) has ${best.count}` : "no node has a free whole GPU"}`;
  const able = ranked.filter((r) => r.count >= p.tensor);
  return `needs ${p.pipeline} nodes with ${p.tensor} free ${kind} each; ${able.length === 0 ? `no node has ${p.tensor} free (the best, ${best?.n.hostname ?? "none"}, has ${best?.count ?? 0})` : `only ${able.length} node${able.length === 1 ? "" : "s"} ha${able.length === 1 ? "s" : "ve"} that (${able.map((r) => r.n.hostname).join(", ")})`}`;
}
