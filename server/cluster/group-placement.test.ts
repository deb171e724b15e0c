import { describe, expect, it } from "vitest";
import { chooseGroup, largestAlignedBlock, type NodeFree } from "./group-placement.ts";

const GiB = 2 ** 30;
const H100 = "NVIDIA H100 80GB HBM3";

function node(hostname: string, freeIndices: number[], opts: { memoryBytes?: number; nvlink?: boolean } = {}): NodeFree {
  return {
    nodeId: hostname,
    hostname,
    region: "tr-ist",
    free: freeIndices.map((index) => ({ id: `${hostname}/${index}`, index, memoryBytes: opts.memoryBytes ?? 80 * GiB, modelName: H100, nvlinkDomain: opts.nvlink === false ? null : 0 })),
  };
}
const all8 = [0, 1, 2, 3, 4, 5, 6, 7];
const need = 40 * GiB;
const picked = (c: ReturnType<typeof chooseGroup>) => (c.ok ? c.stages.map((s) => `${s.hostname}:${s.gpus.map((g) => g.index).join(",")}`) : c.shortfall);

describe("group placement", () => {
  it("puts a TP 4 group on the fuller node, so a later 8-GPU replica still fits on the empty one", () => {
    const nodes = [node("a", all8), node("b", [0, 1, 2, 3])];
    const first = chooseGroup(nodes, { tensor: 4, pipeline: 1 }, need);
    expect(picked(first)).toEqual(["b:0,1,2,3"]);
    // Had it taken node a, no node would have 8 free: the 8-GPU replica below would be refused.
    const after = [node("a", all8), node("b", [])];
    expect(picked(chooseGroup(after, { tensor: 8, pipeline: 1 }, need))).toEqual(["a:0,1,2,3,4,5,6,7"]);
  });

  it("takes aligned blocks inside a node, so the GPUs left still form a block of four", () => {
    // GPUs 0 and 1 are taken by single-GPU replicas: TP 4 takes 4–7, not 2–5.
    expect(picked(chooseGroup([node("a", [2, 3, 4, 5, 6, 7])], { tensor: 4, pipeline: 1 }, need))).toEqual(["a:4,5,6,7"]);
    // TP 2 takes the pair in the broken half, leaving 4–7 whole.
    expect(picked(chooseGroup([node("a", [2, 3, 4, 5, 6, 7])], { tensor: 2, pipeline: 1 }, need))).toEqual(["a:2,3"]);
    expect(largestAlignedBlock(new Set([2, 3, 4, 5, 6, 7]), 7)).toBe(4);
  });

  it("prefers GPUs joined by NVLink over a fuller node that only has PCIe", () => {
    const nodes = [node("pcie", [0, 1], { nvlink: false }), node("nvswitch", [0, 1, 2, 3])];
    expect(picked(chooseGroup(nodes, { tensor: 2, pipeline: 1 }, need))).toEqual(["nvswitch:0,1"]);
  });

  it("falls back to unaligned free GPUs when no aligned block is left", () => {
    expect(picked(chooseGroup([node("a", [1, 2, 5, 6])], { tensor: 4, pipeline: 1 }, need))).toEqual(["a:1,2,5,6"]);
  });

  it("spans nodes for pipeline parallel, one stage per node", () => {
    const c = chooseGroup([node("a", all8), node("b", all8), node("c", [0, 1])], { tensor: 8, pipeline: 2 }, need);
    expect(picked(c)).toEqual(["a:0,1,2,3,4,5,6,7", "b:0,1,2,3,4,5,6,7"]);
  });

  it("refuses with the shortfall named", () => {
    expect(picked(chooseGroup([node("a", [0, 1, 2]), node("b", [0])], { tensor: 4, pipeline: 1 }, need))).toBe("needs 4 free H100 on one node; the best node (a) has 3");
    expect(picked(chooseGroup([node("a", all8), node("b", [0, 1])], { tensor: 8, pipeline: 2 }, need))).toBe("needs 2 nodes with 8 free H100 each; only 1 node has that (a)");
    expect(picked(chooseGroup([node("a", all8, { memoryBytes: 48 * GiB })], { tensor: 2, pipeline: 1 }, 45 * GiB))).toBe("each GPU of the group needs 45.0 GiB usable; the largest free GPU has 43.2 GiB");
  });
});
