import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppsV1Api, CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1Deployment, type V1Pod } from "@kubernetes/client-node";
import { startStandIn, SimpleKubelet, type StandIn } from "./index.ts";
import { failure, waitFor } from "./test-kit.ts";

let standIn: StandIn;
let kc: KubeConfig;
let core: CoreV1Api;
let apps: AppsV1Api;
const merge = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);

beforeAll(async () => {
  standIn = await startStandIn({ kubelet: new SimpleKubelet({ startDelayMs: 10, readyDelayMs: 10, stopDelayMs: 10 }), migApplier: false });
  standIn.seedGpuNodes([
    { name: "h100-a", pool: "h100", gpuCount: 8 },
    { name: "h100-b", pool: "h100", gpuCount: 8 },
    { name: "h100-mig", pool: "h100-mig", gpuCount: 8, migInstances: { "3g.40gb": 2, "1g.10gb": 4 }, wholeGpus: 6 },
  ]);
  kc = standIn.kubeConfig();
  core = kc.makeApiClient(CoreV1Api);
  apps = kc.makeApiClient(AppsV1Api);
});
afterAll(() => standIn.stop());

async function createNamespace(name: string) {
  await core.createNamespace({ body: { metadata: { name } } });
  return name;
}

const vllm = (name: string, replicas: number, gpus: Record<string, string>, extra: Partial<NonNullable<V1Deployment["spec"]>["template"]["spec"]> = {}): V1Deployment => ({
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: "vllm", image: "vllm/vllm-openai:v0.11.0", resources: { limits: gpus } }], ...extra },
    },
  },
});

const ready = (p: V1Pod) => p.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;

describe("a Deployment", () => {
  it("gets its pods named, owned, scheduled onto GPU nodes and Ready, and reports it in its status", async () => {
    const ns = await createNamespace("deploy");
    await apps.createNamespacedDeployment({ namespace: ns, body: vllm("llama", 3, { "nvidia.com/gpu": "4" }) });
    const dep = await waitFor("the Deployment to be available", async () => {
      const d = await apps.readNamespacedDeployment({ namespace: ns, name: "llama" });
      return d.status?.readyReplicas === 3 && d;
    });
    expect(dep.status).toMatchObject({ replicas: 3, updatedReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
    expect(dep.status!.conditions!.map((c) => [c.type, c.status, c.reason])).toEqual([
      ["Available", "True", "MinimumReplicasAvailable"],
      ["Progressing", "True", "NewReplicaSetAvailable"],
    ]);
    const [rs] = (await apps.listNamespacedReplicaSet({ namespace: ns })).items;
    const hash = rs!.metadata!.labels!["pod-template-hash"]!;
    expect(rs!.metadata!.name).toBe(`llama-${hash}`);
    expect(rs!.metadata!.ownerReferences).toEqual([expect.objectContaining({ kind: "Deployment", name: "llama", uid: dep.metadata!.uid, controller: true })]);
    const pods = (await core.listNamespacedPod({ namespace: ns, labelSelector: "app=llama" })).items;
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.metadata!.name).toMatch(new RegExp(`^llama-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      expect(p.metadata!.ownerReferences).toEqual([expect.objectContaining({ kind: "ReplicaSet", name: rs!.metadata!.name, controller: true })]);
      expect(ready(p)).toBe(true);
      expect(p.status!.containerStatuses![0]).toMatchObject({ name: "vllm", ready: true, started: true, restartCount: 0 });
      expect(p.status!.podIP).toMatch(/^10\.244\./);
    }
    // Four GPUs each on 8-GPU nodes: no node can hold three, and the MIG node has only six whole GPUs.
    const perNode = new Map<string, number>();
    for (const p of pods) perNode.set(p.spec!.nodeName!, (perNode.get(p.spec!.nodeName!) ?? 0) + 1);
    expect([...perNode.values()].every((n) => n <= 2)).toBe(true);
    expect(perNode.get("h100-mig") ?? 0).toBeLessThanOrEqual(1);
    for (const [node, count] of perNode) {
      expect((await core.listNamespacedPod({ namespace: ns, fieldSelector: `spec.nodeName=${node}` })).items).toHaveLength(count);
    }

    await apps.patchNamespacedDeployment({ namespace: ns, name: "llama", body: { spec: { replicas: 1 } } }, merge);
    await waitFor("the surplus pods to go", async () => (await core.listNamespacedPod({ namespace: ns })).items.length === 1);
    const scaled = await waitFor("the status to follow", async () => {
      const d = await apps.readNamespacedDeployment({ namespace: ns, name: "llama" });
      return d.status?.replicas === 1 && d;
    });
    expect(scaled.metadata!.generation).toBe(2);
  });

  it("rolls a new template out through a new ReplicaSet and scales the old one to zero", async () => {
    const ns = await createNamespace("rollout");
    await apps.createNamespacedDeployment({ namespace: ns, body: vllm("qwen", 2, { "nvidia.com/gpu": "1" }) });
    await waitFor("the first rollout", async () => (await apps.readNamespacedDeployment({ namespace: ns, name: "qwen" })).status?.readyReplicas === 2);
    await apps.patchNamespacedDeployment(
      { namespace: ns, name: "qwen", body: { spec: { template: { spec: { containers: [{ name: "vllm", image: "vllm/vllm-openai:v0.11.1" }] } } } } },
      setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch),
    );
    await waitFor("the second rollout", async () => {
      const rses = (await apps.listNamespacedReplicaSet({ namespace: ns })).items;
      const pods = (await core.listNamespacedPod({ namespace: ns })).items;
      return rses.length === 2 && rses.some((r) => r.spec!.replicas === 0) && pods.length === 2 && pods.every((p) => p.spec!.containers[0]!.image!.endsWith("v0.11.1") && ready(p));
    });
    const d = await apps.readNamespacedDeployment({ namespace: ns, name: "qwen" });
    expect(d.metadata!.annotations!["deployment.kubernetes.io/revision"]).toBe("2");
  });

  it("reports ProgressDeadlineExceeded when its pods cannot be placed in time", async () => {
    const ns = await createNamespace("deadline");
    const body = vllm("huge", 1, { "nvidia.com/gpu": "16" });
    body.spec!.progressDeadlineSeconds = 1;
    await apps.createNamespacedDeployment({ namespace: ns, body });
    const d = await waitFor("the deadline", async () => {
      const x = await apps.readNamespacedDeployment({ namespace: ns, name: "huge" });
      return x.status?.conditions?.find((c) => c.type === "Progressing" && c.reason === "ProgressDeadlineExceeded") && x;
    });
    expect(d.status!.readyReplicas).toBeUndefined();
    expect(d.status!.unavailableReplicas).toBe(1);
    expect(d.status!.conditions!.find((c) => c.type === "Available")).toMatchObject({ status: "False", reason: "MinimumReplicasUnavailable" });
  });
});

describe("the scheduler", () => {
  const pod = (name: string, limits: Record<string, string>, spec: Partial<V1Pod["spec"]> = {}): V1Pod => ({
    metadata: { name },
    spec: { containers: [{ name: "model", image: "vllm", resources: { limits } }], ...spec },
  });
  const scheduled = (ns: string, name: string) =>
    waitFor(`${name} to be scheduled`, async () => {
      const p = await core.readNamespacedPod({ namespace: ns, name });
      return p.status?.conditions?.find((c) => c.type === "PodScheduled") && p;
    });

  it("leaves a GPU request no node can hold Pending with the scheduler's Unschedulable message and event, and cordon counts", async () => {
    const ns = await createNamespace("unfit");
    await core.patchNode({ name: "h100-b", body: { spec: { unschedulable: true } } }, merge);
    try {
      await core.createNamespacedPod({ namespace: ns, body: pod("greedy", { "nvidia.com/gpu": "16" }) });
      const p = await scheduled(ns, "greedy");
      expect(p.status!.phase).toBe("Pending");
      expect(p.spec!.nodeName).toBeUndefined();
      expect(p.status!.conditions!.find((c) => c.type === "PodScheduled")).toMatchObject({
        status: "False",
        reason: "Unschedulable",
        message: "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient nvidia.com/gpu.",
      });
      const events = await waitFor("FailedScheduling", async () => {
        const list = (await core.listNamespacedEvent({ namespace: ns, fieldSelector: "involvedObject.name=greedy,reason=FailedScheduling" })).items;
        return list.length > 0 && list;
      });
      expect(events[0]).toMatchObject({ type: "Warning", source: { component: "default-scheduler" }, involvedObject: { kind: "Pod", name: "greedy" } });
    } finally {
      await core.patchNode({ name: "h100-b", body: { spec: { unschedulable: null } } }, merge);
    }
  });

  it("keeps pods off a cordoned node until it is uncordoned", async () => {
    const ns = await createNamespace("cordon");
    await core.patchNode({ name: "h100-a", body: { spec: { unschedulable: true } } }, merge);
    await core.createNamespacedPod({ namespace: ns, body: pod("pinned", { "nvidia.com/gpu": "1" }, { nodeSelector: { "kubernetes.io/hostname": "h100-a" } }) });
    const waiting = await scheduled(ns, "pinned");
    expect(waiting.status!.conditions!.find((c) => c.type === "PodScheduled")!.message).toBe(
      "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match Pod's node affinity/selector.",
    );
    await core.patchNode({ name: "h100-a", body: { spec: { unschedulable: false } } }, merge);
    const placed = await waitFor("the pod to land", async () => {
      const p = await core.readNamespacedPod({ namespace: ns, name: "pinned" });
      return p.spec?.nodeName ? p : undefined;
    });
    expect(placed.spec!.nodeName).toBe("h100-a");
  });

  it("places MIG requests on nodes advertising the profile, and honours required node affinity and taints", async () => {
    const ns = await createNamespace("placement");
    await core.createNamespacedPod({ namespace: ns, body: pod("slice", { "nvidia.com/mig-3g.40gb": "1" }) });
    expect((await waitFor("slice placed", async () => (await core.readNamespacedPod({ namespace: ns, name: "slice" })).spec?.nodeName))).toBe("h100-mig");

    const affinity = (operator: string, values?: string[]) => ({
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: "kule.io/node-pool", operator, values }] }] } },
    });
    await core.createNamespacedPod({ namespace: ns, body: pod("not-mig", { "nvidia.com/gpu": "1" }, { affinity: affinity("NotIn", ["h100-mig", "h100"]) }) });
    expect((await scheduled(ns, "not-mig")).status!.conditions![0]!.message).toBe("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.");
    await core.createNamespacedPod({ namespace: ns, body: pod("in-pool", { "nvidia.com/gpu": "1" }, { affinity: affinity("In", ["h100-mig"]) }) });
    expect((await scheduled(ns, "in-pool")).spec!.nodeName).toBe("h100-mig");

    await core.patchNode({ name: "h100-mig", body: { spec: { taints: [{ key: "nvidia.com/gpu", value: "present", effect: "NoSchedule" }] } } }, merge);
    try {
      await core.createNamespacedPod({ namespace: ns, body: pod("untolerated", { "nvidia.com/mig-1g.10gb": "1" }) });
      expect((await scheduled(ns, "untolerated")).status!.conditions![0]!.message).toBe(
        "0/3 nodes are available: 1 node(s) had untolerated taint {nvidia.com/gpu: present}, 2 Insufficient nvidia.com/mig-1g.10gb.",
      );
      await core.createNamespacedPod({
        namespace: ns,
        body: pod("tolerated", { "nvidia.com/mig-1g.10gb": "1" }, { tolerations: [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }] }),
      });
      expect((await scheduled(ns, "tolerated")).spec!.nodeName).toBe("h100-mig");
    } finally {
      await core.patchNode({ name: "h100-mig", body: { spec: { taints: null } } }, merge);
    }
  });
});

describe("pod deletion", () => {
  it("is graceful for a running pod: it answers with the pod marked for deletion, which goes once the kubelet has stopped it", async () => {
    const ns = await createNamespace("graceful");
    await core.createNamespacedPod({ namespace: ns, body: { metadata: { name: "draining" }, spec: { terminationGracePeriodSeconds: 30, containers: [{ name: "m", image: "vllm" }] } } });
    await waitFor("running", async () => ready(await core.readNamespacedPod({ namespace: ns, name: "draining" })));
    const deleted = await core.deleteNamespacedPod({ namespace: ns, name: "draining" });
    expect(deleted.metadata!.deletionTimestamp).toBeInstanceOf(Date);
    expect(deleted.metadata!.deletionGracePeriodSeconds).toBe(30);
    await waitFor("the pod to be gone", async () => (await failure(core.readNamespacedPod({ namespace: ns, name: "draining" }))).code === 404);
  });

  it("by eviction, as a drain does it, is the same graceful deletion", async () => {
    const ns = await createNamespace("evict");
    await core.createNamespacedPod({ namespace: ns, body: { metadata: { name: "evicted" }, spec: { containers: [{ name: "m", image: "vllm" }] } } });
    await waitFor("running", async () => ready(await core.readNamespacedPod({ namespace: ns, name: "evicted" })));
    await core.createNamespacedPodEviction({ namespace: ns, name: "evicted", body: { metadata: { name: "evicted", namespace: ns } } });
    await waitFor("the pod to be gone", async () => (await failure(core.readNamespacedPod({ namespace: ns, name: "evicted" }))).code === 404);
  });

  it("of a Deployment takes its ReplicaSets and pods with it", async () => {
    const ns = await createNamespace("cascade");
    await apps.createNamespacedDeployment({ namespace: ns, body: vllm("gone", 2, { "nvidia.com/gpu": "1" }) });
    await waitFor("pods", async () => (await core.listNamespacedPod({ namespace: ns })).items.length === 2);
    const status = await apps.deleteNamespacedDeployment({ namespace: ns, name: "gone" });
    expect(status).toMatchObject({ status: "Success" });
    await waitFor("the dependents to go", async () => (await core.listNamespacedPod({ namespace: ns })).items.length === 0 && (await apps.listNamespacedReplicaSet({ namespace: ns })).items.length === 0);
    expect(standIn.controllerErrors).toEqual([]);
  });
});
