import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1Node } from "@kubernetes/client-node";
import { startStandIn, MIG_STATE_LABEL, type MigApplier, type StandIn } from "./index.ts";
import { recordWatch, waitFor } from "./test-kit.ts";

const MIG_PARTED = `version: v1
mig-configs:
  all-disabled:
    - devices: all
      mig-enabled: false
  all-1g.10gb:
    - devices: all
      mig-enabled: true
      mig-devices:
        "1g.10gb": 7
  mixed-0:
    - devices: [0]
      mig-enabled: true
      mig-devices: { "3g.40gb": 1, "2g.20gb": 1, "1g.10gb": 1 }
    - devices: [1, 2, 3, 4, 5, 6, 7]
      mig-enabled: false
  too-big:
    - devices: [0]
      mig-enabled: true
      mig-devices: { "4g.40gb": 2 }
`;

let standIn: StandIn;
let kc: KubeConfig;
let core: CoreV1Api;
const merge = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);

beforeAll(async () => {
  standIn = await startStandIn();
  standIn.api.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "gpu-operator" } });
  standIn.api.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "default-mig-parted-config", namespace: "gpu-operator" }, data: { "config.yaml": MIG_PARTED } });
  standIn.seedGpuNodes([{ name: "mig-1" }, { name: "mig-2" }, { name: "busy" }, { name: "l40s", product: "NVIDIA-L40S", gpuMemoryMiB: 46068 }]);
  kc = standIn.kubeConfig();
  core = kc.makeApiClient(CoreV1Api);
});
afterAll(() => standIn.stop());

const setLayout = (node: string, layout: string) => core.patchNode({ name: node, body: { metadata: { labels: { "nvidia.com/mig.config": layout } } } }, merge);
const stateOf = (n: V1Node) => n.metadata?.labels?.[MIG_STATE_LABEL];
/** The node once the manager has finished with `layout` (the state label alone may still show the last one). */
const settled = async (node: string, layout: string) => {
  await waitFor(`${node} to settle on ${layout}`, () => standIn.migManager!.outcome(node)?.config === layout && standIn.migManager!.outcome(node)!.state !== "pending");
  return core.readNode({ name: node });
};

describe("the MIG manager", () => {
  it("walks nvidia.com/mig.config.state from pending to success, pausing GPU operands, and advertises the new instances", async () => {
    const w = await recordWatch(kc, "/api/v1/nodes", { fieldSelector: "metadata.name=mig-1", resourceVersion: String(standIn.store.revision) });
    await setLayout("mig-1", "all-1g.10gb");
    const node = await settled("mig-1", "all-1g.10gb");
    w.abort();
    const states = w.events.map((e) => (e.object.metadata as { labels?: Record<string, string> }).labels?.[MIG_STATE_LABEL]).filter((s, i, all) => s && s !== all[i - 1]);
    expect(states).toEqual(["pending", "success"]);
    const pendingLabels = w.events.map((e) => (e.object.metadata as { labels: Record<string, string> }).labels).find((l) => l[MIG_STATE_LABEL] === "pending")!;
    expect(pendingLabels["nvidia.com/gpu.deploy.device-plugin"]).toBe("paused-for-mig-change");
    expect(node.metadata!.labels!["nvidia.com/gpu.deploy.device-plugin"]).toBe("true");
    expect(node.status!.allocatable).toMatchObject({ "nvidia.com/gpu": "0", "nvidia.com/mig-1g.10gb": "56" });
    expect(node.status!.capacity!["nvidia.com/mig-1g.10gb"]).toBe("56");
    expect(node.metadata!.labels!["nvidia.com/mig-1g.10gb.count"]).toBe("56");
  });

  it("applies a mixed layout, and reverting drops the MIG resources", async () => {
    await setLayout("mig-2", "mixed-0");
    const mixed = await settled("mig-2", "mixed-0");
    expect(stateOf(mixed)).toBe("success");
    expect(mixed.status!.allocatable).toMatchObject({ "nvidia.com/gpu": "7", "nvidia.com/mig-3g.40gb": "1", "nvidia.com/mig-2g.20gb": "1", "nvidia.com/mig-1g.10gb": "1" });
    await setLayout("mig-2", "all-disabled");
    const reverted = await waitFor("the revert", async () => {
      const n = await core.readNode({ name: "mig-2" });
      return stateOf(n) === "success" && n.status!.allocatable!["nvidia.com/gpu"] === "8" && n;
    });
    expect(Object.keys(reverted.status!.allocatable!).filter((k) => k.startsWith("nvidia.com/mig-"))).toEqual([]);
  });

  it("ends failed for an unknown or impossible layout, or GPUs still in use", async () => {
    await setLayout("mig-2", "no-such-layout");
    expect(stateOf(await settled("mig-2", "no-such-layout"))).toBe("failed");
    expect(standIn.migManager!.outcome("mig-2")).toMatchObject({ state: "failed", reason: 'unable to find config "no-such-layout" in the mig-parted config' });

    await setLayout("mig-2", "too-big");
    expect(stateOf(await settled("mig-2", "too-big"))).toBe("failed");
    expect(standIn.migManager!.outcome("mig-2")!.reason).toBe("MIG devices for GPU 0 need 8 compute slices; a GPU has 7");


    await core.createNamespacedPod({
      namespace: "default",
      body: { metadata: { name: "on-busy" }, spec: { nodeName: "busy", containers: [{ name: "m", image: "vllm", resources: { limits: { "nvidia.com/gpu": "1" } } }] } },
    });
    await setLayout("busy", "all-1g.10gb");
    expect(stateOf(await settled("busy", "all-1g.10gb"))).toBe("failed");
    expect(standIn.migManager!.outcome("busy")!.reason).toBe("GPUs in use by default/on-busy");
  });

  it("is not deployed on a node without MIG-capable GPUs, so its label stays unanswered", async () => {
    await setLayout("l40s", "all-1g.10gb");
    await setLayout("mig-1", "mixed-0");
    await settled("mig-1", "mixed-0");
    const l40s = await core.readNode({ name: "l40s" });
    expect(stateOf(l40s)).toBeUndefined();
    expect(standIn.migManager!.outcome("l40s")).toBeUndefined();
    expect(standIn.controllerErrors).toEqual([]);
  });
});

describe("a pluggable MIG applier", () => {
  it("decides the outcome: a failing one ends failed, one that never answers leaves the node pending", async () => {
    let calls = 0;
    const applier: MigApplier = {
      apply: (_node, config) => {
        calls++;
        return config === "hang" ? new Promise(() => {}) : Promise.resolve({ ok: false, reason: "nvidia-smi: GPU 3 is busy" });
      },
    };
    const custom = await startStandIn({ migApplier: applier, kubelet: false });
    try {
      custom.seedGpuNodes([{ name: "a", migConfig: "all-1g.10gb" }, { name: "b" }]);
      await waitFor("the preset label to fail", () => custom.api.get<V1Node>("Node", undefined, "a")?.metadata?.labels?.[MIG_STATE_LABEL] === "failed");
      expect(custom.migManager!.outcome("a")!.reason).toBe("nvidia-smi: GPU 3 is busy");
      custom.api.mutate<V1Node>("Node", undefined, "b", (n) => void (n.metadata!.labels!["nvidia.com/mig.config"] = "hang"));
      await waitFor("pending", () => custom.api.get<V1Node>("Node", undefined, "b")?.metadata?.labels?.[MIG_STATE_LABEL] === "pending");
      await new Promise((r) => setTimeout(r, 100));
      expect(custom.api.get<V1Node>("Node", undefined, "b")!.metadata!.labels![MIG_STATE_LABEL]).toBe("pending");
      expect(calls).toBe(2);
    } finally {
      await custom.stop();
    }
  });
});
