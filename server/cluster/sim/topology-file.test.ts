import { describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadTopology } from "./topology-file.ts";
import { validateMigLayout } from "../mig.ts";

const count = (t: ReturnType<typeof loadTopology>) => ({ nodes: t.pools.flatMap((p) => p.nodes).length, gpus: t.pools.flatMap((p) => p.nodes.flatMap((n) => n.gpus)).length });

describe("the topologies the simulator plays", () => {
  it("the reference cluster: four pools, one outside Turkey, 52 GPUs, valid MIG layouts on one node", () => {
    const t = loadTopology("reference");
    expect(t.cluster).toBe("kule-sim");
    expect(t.pools.map((p) => `${p.name}:${p.region}`)).toEqual(["llm-h100:tr-ist", "vision-l40s:tr-ist", "cpu-ank:tr-ank", "eu-fra:eu-fra"]);
    expect(count(t)).toEqual({ nodes: 11, gpus: 52 });
    const mig = t.pools[0]!.nodes[3]!.gpus.filter((g) => g.migEnabled);
    expect(mig.map((g) => g.index)).toEqual([6, 7]);
    for (const g of mig) expect(validateMigLayout(80, g.migInstances)).toEqual([]);
  });

  it("a fleet of 125 eight-GPU nodes is 1,000 GPUs, and a JSON file is read as given", () => {
    expect(count(loadTopology("fleet-125"))).toEqual({ nodes: 125, gpus: 1000 });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kule-topo-")), "t.json");
    fs.writeFileSync(file, JSON.stringify({ cluster: "mine", pools: [] }));
    expect(loadTopology(file)).toEqual({ cluster: "mine", pools: [] });
    fs.writeFileSync(file, JSON.stringify({ pools: [] }));
    expect(() => loadTopology(file)).toThrow(/needs "cluster" and "pools"/);
  });
});
