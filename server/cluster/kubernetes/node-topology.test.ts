import { describe, expect, it } from "vitest";
import { gpuNode } from "./stand-in/gpu-nodes.ts";
import { nvlinkDomains, topologyOf } from "./node-topology.ts";
import { gpuUuid } from "../gpu-uuid.ts";
import type { NodeObj } from "./kube-types.ts";

const reading = (configs: Record<string, unknown> = {}) => ({ poolLabel: "kule.io/node-pool", migConfigs: new Map(Object.entries(configs)) as never });

describe("Node objects as Kule's topology", () => {
  it("pools by the pool label, regions, GPUs from GPU feature discovery, cordon and readiness", () => {
    const nodes = [
      gpuNode({ name: "a", pool: "h100", region: "tr-ist", gpuCount: 2, gpuMemoryMiB: 81920 }),
      gpuNode({ name: "b", pool: "h100", region: "tr-ist", gpuCount: 2, ready: false, unschedulable: true }),
      gpuNode({ name: "c", region: "eu-fra", product: "NVIDIA-L40S", gpuCount: 1, gpuMemoryMiB: 46068 }),
    ] as NodeObj[];
    const t = topologyOf("prod", nodes, reading());
    expect(t.pools.map((p) => [p.name, p.region, p.nodes.map((n) => n.hostname)])).toEqual([
      ["h100", "tr-ist", ["a", "b"]],
      ["default", "eu-fra", ["c"]],
    ]);
    const [a, b] = t.pools[0]!.nodes;
    expect(a!.gpus.map((g) => [g.uuid, g.modelName, g.memoryBytes])).toEqual([
      [gpuUuid("a", 0), "NVIDIA H100 80GB HBM3", 80 * 2 ** 30],
      [gpuUuid("a", 1), "NVIDIA H100 80GB HBM3", 80 * 2 ** 30],
    ]);
    expect([a!.status, a!.cordoned, b!.status, b!.cordoned]).toEqual(["ready", false, "not_ready", true]);
    expect(t.pools[1]!.nodes[0]!.gpus[0]!.migEnabled).toBe(false);
  });

  it("MIG layouts from the applied mig-parted entry, or from the advertised instances when it is unknown", () => {
    const known = gpuNode({ name: "m", gpuCount: 2, gpuMemoryMiB: 81920, migInstances: { "3g.40gb": 2 }, wholeGpus: 1, migConfig: "two-threes", labels: { "nvidia.com/mig.config.state": "success" } }) as NodeObj;
    const groups = { "two-threes": [{ devices: [1], "mig-enabled": true, "mig-devices": { "3g.40gb": 2 } }] };
    const gpus = topologyOf("c", [known], reading(groups)).pools[0]!.nodes[0]!.gpus;
    expect(gpus.map((g) => g.migInstances.map((m) => `${m.profile}@${m.startSlot}`))).toEqual([[], ["3g.40gb@0", "3g.40gb@4"]]);
    const node = topologyOf("c", [known], reading()).pools[0]!.nodes[0]!;
    expect(node.gpus[1]!.migInstances).toHaveLength(2);
    expect(node.mig).toMatchObject({ config: "two-threes", state: "success" });
  });

  it("NVLink domains: one NVSwitch fabric on SXM boards, none on PCIe cards, the operator's label over the guess", () => {
    expect(nvlinkDomains({ "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3" }, 2)).toEqual([0, 0]);
    expect(nvlinkDomains({ "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB" }, 1)).toEqual([0]);
    expect(nvlinkDomains({ "nvidia.com/gpu.product": "NVIDIA-H100-PCIe" }, 2)).toEqual([null, null]);
    expect(nvlinkDomains({ "nvidia.com/gpu.product": "NVIDIA-H200-NVL" }, 2)).toEqual([null, null]);
    expect(nvlinkDomains({ "nvidia.com/gpu.product": "NVIDIA-L40S" }, 1)).toEqual([null]);
    expect(nvlinkDomains({ "nvidia.com/gpu.product": "NVIDIA-H100-PCIe", "kule.io/nvlink-domains": "0.0.1.-" }, 4)).toEqual([0, 0, 1, null]);
    const [node] = topologyOf("prod", [gpuNode({ name: "a", gpuCount: 2, gpuMemoryMiB: 81920 })] as NodeObj[], reading()).pools[0]!.nodes;
    expect(node!.gpus.map((g) => g.nvlinkDomain)).toEqual([0, 0]);
  });
});
