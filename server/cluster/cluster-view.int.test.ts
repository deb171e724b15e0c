import { beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor } from "../test/harness.ts";
import type { Actor } from "../auth/actor.ts";

/** The cluster page's queries against the run's simulated cluster (server/cluster/sim/fixtures.ts). */
let auditor: Actor;
beforeAll(async () => {
  auditor = await makeActor("auditor");
});

describe("the cluster page's queries", () => {
  it("the summary counts per pool, offers the filters' values and names the driver", async () => {
    const s = await caller(auditor).cluster.summary();
    expect(s.driver).toMatchObject({ kind: "sim", reachable: true, faults: true });
    const llm = s.pools.find((p) => p.name === "llm" && p.cluster === "test-sim")!;
    expect(llm).toMatchObject({ region: "tr-ist", nodes: 2, gpus: 3, migGpus: 1 });
    expect(s.facets.gpuModels).toEqual(expect.arrayContaining(["NVIDIA H100 80GB HBM3", "NVIDIA L40S"]));
    expect(s.facets.migProfiles).toEqual(expect.arrayContaining(["3g.40gb", "1g.10gb"]));
    expect(s.facets.regions).toEqual(expect.arrayContaining(["eu-fra", "tr-ank", "tr-ist"]));
    const pools = await caller(auditor).cluster.nodePools();
    expect(pools.find((p) => p.id === llm.id)).toMatchObject({ nodes: 2, gpus: 3, gpuModels: ["NVIDIA H100 80GB HBM3"] });
    expect(pools.find((p) => p.name === "cpu" && p.region === "tr-ank")).toMatchObject({ gpus: 0, gpuModels: [] });
  });

  it("lists nodes a page at a time, narrowed by search, region, GPU model and MIG profile", async () => {
    const api = caller(auditor);
    const first = await api.cluster.nodes({ limit: 2 });
    expect(first.nodes).toHaveLength(2);
    expect(first.next).toBe(first.nodes[1]!.hostname);
    const second = await api.cluster.nodes({ limit: 2, after: first.next! });
    expect(second.nodes[0]!.hostname > first.nodes[1]!.hostname).toBe(true);
    expect((await api.cluster.nodes({ search: "LLM-" })).nodes.map((n) => n.hostname)).toEqual(["llm-1", "llm-2"]);
    expect((await api.cluster.nodes({ region: "eu-fra" })).nodes.map((n) => n.hostname)).toEqual(["fra-1"]);
    expect((await api.cluster.nodes({ gpuModel: "NVIDIA L40S" })).nodes.map((n) => n.hostname)).toEqual(["vis-1"]);
    const mig = await api.cluster.nodes({ migProfile: "1g.10gb" });
    expect(mig.nodes.map((n) => [n.hostname, n.migGpus, n.gpuModels])).toEqual([["llm-2", 1, ["NVIDIA H100 80GB HBM3"]]]);
  });

  it("opens one node in full on demand, and says so when there is none", async () => {
    const n = await caller(auditor).cluster.node({ hostname: "llm-2" });
    expect(n.gpus[0]!.migInstances.map((m) => `${m.profile}@${m.startSlot}`)).toEqual(["3g.40gb@0", "1g.10gb@4"]);
    expect(n).toMatchObject({ pool: "llm", migApplies: "at-once", mig: null });
    await expect(caller(auditor).cluster.node({ hostname: "no-such-node" })).rejects.toThrow(/Node not found/);
  });

  it("the heat map lays out every GPU by pool and node, grey without Prometheus", async () => {
    const h = await caller(auditor).cluster.heatmap();
    expect(h.metrics.available).toBe(false);
    const llm = h.pools.find((p) => p.name === "llm")!;
    expect(llm.nodes.find((n) => n.hostname === "llm-1")).toMatchObject({ uuids: ["GPU-llm-1-0", "GPU-llm-1-1"], util: [null, null] });
    expect(h.pools.some((p) => p.name === "cpu")).toBe(false);
  });
});
