import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigMapMigApplier, SimpleKubelet, startStandIn, type StandIn } from "./stand-in/index.ts";
import { KubernetesDriver } from "./kubernetes-driver.ts";
import { defaultKubernetesSettings } from "./default-settings.ts";
import { gpuUuid } from "../gpu-uuid.ts";
import { KULE } from "./kube-types.ts";
import type { ClusterEvent, ReplicaSpec } from "../driver.ts";

/**
 * The Kubernetes driver against the stand-in with its test kubelet, whose faults a real node
 * reports: an image that does not pull, an engine killed for memory, a pod no node can take, a
 * MIG change that fails; and against an API server that expires watches or goes away.
 */
let standIn: StandIn;
let driver: KubernetesDriver;
const kubelet = new SimpleKubelet({ startDelayMs: 10, readyDelayMs: 10, msPerBackoffSecond: 2 });
const events: ClusterEvent[] = [];
let reconnects = 0;

const spec = (id: string, node: string, gpu: number, versionId = `v-${id}`): ReplicaSpec => ({
  id,
  endpointSlug: "chat",
  servedModelName: "llama-3.1-8b-instruct",
  versionId,
  versionLabel: "1.0",
  task: "llm",
  parameterCount: 8e9,
  weightBytes: 8e9,
  device: { kind: "gpu", gpuUuid: gpuUuid(node, gpu) },
});

const until = async <T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

beforeAll(async () => {
  standIn = await startStandIn({ kubelet, migApplier: new ConfigMapMigApplier({ namespace: "gpu-operator", name: "kule-mig-parted-config", delayMs: 30 }), bookmarkIntervalMs: 100 });
  for (const name of ["kule-replicas", "gpu-operator"]) standIn.api.create({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
  standIn.seedGpuNodes([
    { name: "h100-a", pool: "h100", region: "tr-ist", gpuCount: 4 },
    { name: "h100-b", pool: "h100", region: "tr-ist", gpuCount: 2 },
    // Labelled with two GPUs, but the device plugin advertises none: nothing fits there.
    { name: "h100-broken", pool: "h100", region: "tr-ist", gpuCount: 2, wholeGpus: 0 },
  ]);
  kubelet.injectFault((p) => p.metadata.labels?.[KULE.versionId] === "v-pull", { kind: "ImagePullBackOff" });
  kubelet.injectFault((p) => p.metadata.labels?.[KULE.versionId] === "v-oom", { kind: "OOMKilled" });
  driver = new KubernetesDriver(standIn.kubeConfig(), defaultKubernetesSettings());
  driver.subscribe((e) => events.push(e), () => reconnects++);
  await driver.ready();
});
afterAll(async () => {
  driver.close();
  await standIn.stop();
});

describe("replicas, and why they do not run", () => {
  it("starts and stops a replica with LIST + WATCH alone: a few writes per change, nothing while idle", async () => {
    const before = driver.client.requests;
    await driver.startReplica(spec("r1", "h100-a", 0));
    expect((await driver.awaitReady("r1", 5000)).url).toMatch(/^http:\/\/10\.244\.\d+\.\d+:8000$/);
    const started = driver.client.requests - before;
    // Creating the version's Deployment and Service, then binding and pinning its pod.
    expect(started).toBe(3);
    await new Promise((r) => setTimeout(r, 500));
    expect(driver.client.requests - before).toBe(started);
    await driver.startReplica(spec("r2", "h100-a", 1, "v-r1"));
    await driver.awaitReady("r2", 5000);
    expect(driver.client.requests - before - started).toBe(2);
    const mark = driver.client.requests;
    await driver.stopReplica("r2");
    expect(driver.client.requests - mark).toBeLessThanOrEqual(3);
    expect((await driver.listReplicas()).map((r) => r.id)).toEqual(["r1"]);
    const pods = standIn.api.list<{ metadata: { annotations?: Record<string, string> }; spec: { nodeName?: string; nodeSelector?: Record<string, string> } }>("Pod", { namespace: "kule-replicas" });
    expect(pods.map((p) => [p.metadata.annotations?.[KULE.replica], p.spec.nodeName, p.spec.nodeSelector?.["kule.io/node-pool"]])).toEqual([["r1", "h100-a", "h100"]]);
  });

  it("a replica whose node stops being ready fails with the node's own words, and comes back with it", async () => {
    const setReady = (status: string, reason: string) =>
      standIn.api.mutate<{ status: { conditions: { type: string; status: string; reason?: string; message?: string }[] } }>("Node", undefined, "h100-a", (n) => {
        Object.assign(n.status.conditions.find((c) => c.type === "Ready")!, { status, reason, message: status === "True" ? "kubelet is posting ready status" : "Kubelet stopped posting node status." });
      }, { status: true });
    setReady("Unknown", "NodeStatusUnknown");
    const down = await until("the replica to fail", async () => {
      const r = await driver.replicaHealth("r1");
      return r.state === "failed" && r;
    });
    expect(down.reason).toBe("Its node h100-a is not ready (NodeStatusUnknown: Kubelet stopped posting node status.): Kule sends it no requests until the node is back.");
    setReady("True", "KubeletReady");
    await until("the replica back", async () => (await driver.replicaHealth("r1")).state === "ready");
  });

  it("applies a version's workload again when what its pods should be has changed, and only then", async () => {
    await driver.startReplica({ ...spec("t1", "h100-a", 1, "v-template"), artifactUri: "s3://models/a" });
    await driver.awaitReady("t1", 5000);
    const before = driver.client.requests;
    await driver.startReplica({ ...spec("t2", "h100-a", 2, "v-template"), artifactUri: "s3://models/b" });
    await Promise.all([driver.awaitReady("t2", 5000), until("t1 back on a pod of the new template", async () => (await driver.replicaHealth("t1")).state === "ready")]);
    // The apply of the new template and the count; then both pods are new (the template changed), each claimed.
    expect(driver.client.requests - before).toBe(4);
    const d = standIn.api.list<{ spec: { replicas: number; template: { spec: { containers: { args: string[] }[] } } }; metadata: { labels: Record<string, string> } }>("Deployment", { namespace: "kule-replicas" }).find((x) => x.metadata.labels[KULE.versionId] === "v-template")!;
    expect(d.spec.replicas).toBe(2);
    expect(d.spec.template.spec.containers[0]!.args).toContain("s3://models/b");
    await driver.stopReplica("t2");
    await driver.stopReplica("t1");
    expect(standIn.api.list("Pod", { namespace: "kule-replicas", where: (p) => p.metadata.labels?.[KULE.versionId] === "v-template" })).toEqual([]);
  });

  it("a pod no node can take stays pending with the scheduler's own words", async () => {
    await driver.startReplica(spec("nofit", "h100-broken", 0));
    const s = await until("the scheduler's verdict", async () => {
      const x = await driver.replicaHealth("nofit");
      return x.reason?.startsWith("Kubernetes cannot place it") && x;
    });
    expect(s.state).toBe("pending");
    expect(s.reason).toMatch(/Kubernetes cannot place it: 0\/3 nodes are available: .*1 Insufficient nvidia\.com\/gpu/);
    await driver.stopReplica("nofit");
  });

  it("an image that does not pull fails the replica, naming the image and what to check", async () => {
    await driver.startReplica(spec("pull", "h100-b", 0, "v-pull"));
    await expect(driver.awaitReady("pull", 5000)).rejects.toThrow(/cannot pull image vllm\/vllm-openai:v0\.11\.0 \(ErrImagePull\).*imagePullSecrets/);
    await until("ImagePullBackOff", async () => (await driver.replicaHealth("pull")).reason?.includes("(ImagePullBackOff)"));
    await driver.stopReplica("pull");
  });

  it("an engine killed for memory is a crash loop saying OOMKilled and what to do", async () => {
    await driver.startReplica(spec("oom", "h100-b", 1, "v-oom"));
    const s = await until("the crash loop", async () => {
      const x = await driver.replicaHealth("oom");
      return x.reason?.startsWith("Crash loop") && x;
    });
    expect(s).toMatchObject({ state: "failed", reason: expect.stringMatching(/OOMKilled, exit code 137\): raise its memory limit or place it on a device with more memory\. Restarted \d+ times?/) });
    await driver.stopReplica("oom");
  });

  it("two Kule processes starting replicas of one version at once lose no update: the Deployment counts both", async () => {
    const other = new KubernetesDriver(standIn.kubeConfig(), defaultKubernetesSettings());
    try {
      await other.ready();
      await Promise.all([driver.startReplica(spec("c1", "h100-a", 2, "v-conflict")), other.startReplica(spec("c2", "h100-a", 3, "v-conflict"))]);
      await Promise.all([driver.awaitReady("c1", 5000), other.awaitReady("c2", 5000)]);
      const d = standIn.api.list<{ spec: { replicas: number }; metadata: { labels: Record<string, string> } }>("Deployment", { namespace: "kule-replicas" }).find((x) => x.metadata.labels[KULE.versionId] === "v-conflict")!;
      expect(d.spec.replicas).toBe(2);
      // Each process sees the other's replica too (from the pod's annotations) and can stop it.
      await until("c2 seen by the first process", async () => (await driver.listReplicas()).some((r) => r.id === "c2" && r.state === "ready"));
      await driver.stopReplica("c2");
      await driver.stopReplica("c1");
    } finally {
      other.close();
    }
  });
});

describe("MIG through the node's MIG manager", () => {
  it("refuses what the manager cannot lay out, and a node with Kule's pods on it, before writing anything", async () => {
    const before = driver.client.requests;
    await expect(driver.applyMigLayout(gpuUuid("h100-b", 0), [{ profile: "3g.40gb", startSlot: 4 }])).rejects.toThrow(/chooses the slots itself.*3g\.40gb@0/);
    await expect(driver.applyMigLayout(gpuUuid("h100-a", 3), [{ profile: "7g.80gb", startSlot: 0 }])).rejects.toThrow(/every GPU workload off h100-a: stop or drain its 1 replica/);
    expect(driver.client.requests).toBe(before);
    expect(standIn.api.get("ConfigMap", "gpu-operator", "kule-mig-parted-config")).toBeUndefined();
  });

  it("a change the manager applies: pending since when Kule asked, then success with the new layout", async () => {
    const progress = await driver.applyMigLayout(gpuUuid("h100-b", 1), [{ profile: "3g.40gb", startSlot: 0 }, { profile: "2g.20gb", startSlot: 4 }, { profile: "1g.10gb", startSlot: 6 }]);
    expect(progress).toMatchObject({ state: "pending", config: expect.stringMatching(/^kule-h100-b-/) });
    const mig = await until("the layout", () => events.find((e) => e.type === "mig" && e.gpuUuid === gpuUuid("h100-b", 1) && e.layout.length === 3));
    expect(mig).toMatchObject({ layout: [{ profile: "3g.40gb", startSlot: 0 }, { profile: "2g.20gb", startSlot: 4 }, { profile: "1g.10gb", startSlot: 6 }] });
    const node = (await driver.listTopology()).pools.flatMap((p) => p.nodes).find((n) => n.hostname === "h100-b")!;
    expect(node.mig).toMatchObject({ state: "success", since: progress!.since });
    expect(node.gpus.map((g) => g.migInstances.length)).toEqual([0, 3]);
  });

  it("a change the manager fails shows failed, with its reason", async () => {
    // A GPU workload Kule does not know about: the manager refuses to re-partition under it.
    standIn.api.create({ apiVersion: "v1", kind: "Pod", metadata: { name: "someone-elses", namespace: "default" }, spec: { nodeName: "h100-b", containers: [{ name: "x", image: "busybox", resources: { limits: { "nvidia.com/gpu": "1" } } }] } });
    await driver.applyMigLayout(gpuUuid("h100-b", 0), [{ profile: "7g.80gb", startSlot: 0 }]);
    const failed = await until("the failure", () => events.find((e) => e.type === "node" && e.hostname === "h100-b" && e.mig?.state === "failed" && e.mig.reason));
    expect(failed.type === "node" && failed.mig!.reason).toMatch(/failed: GPUs in use by default\/someone-elses/);
    standIn.api.delete("Pod", "default", "someone-elses", { gracePeriodSeconds: 0 });
  });
});

describe("an API server that expires watches or goes away", () => {
  it("relists after 410 Gone, as an ERROR event and as an HTTP status, and misses nothing", async () => {
    const relists = driver.reflectors.reduce((n, r) => n + r.relists, 0);
    standIn.compact();
    standIn.expireWatches();
    await driver.startReplica(spec("after-410", "h100-a", 1, "v-410"));
    await driver.awaitReady("after-410", 5000);
    expect(driver.reflectors.reduce((n, r) => n + r.relists, 0)).toBeGreaterThanOrEqual(relists + 4);
    await driver.stopReplica("after-410");
  });

  it("goes unavailable while the server is away, then relists and reconciles once when it is back", async () => {
    const before = reconnects;
    await standIn.goAway();
    await until("the driver to notice", () => !driver.reachable);
    await expect(driver.startReplica(spec("away", "h100-a", 1, "v-away"))).rejects.toThrow(/does not answer/);
    // Meanwhile the cluster changed: a node was cordoned.
    standIn.api.mutate<{ spec: { unschedulable?: boolean } }>("Node", undefined, "h100-b", (n) => void (n.spec.unschedulable = true));
    await standIn.comeBack();
    await until("the driver to be back", () => driver.reachable, 15_000);
    await until("one reconcile", () => reconnects === before + 1, 5000);
    await new Promise((r) => setTimeout(r, 300));
    expect(reconnects).toBe(before + 1);
    const b = (await driver.listTopology()).pools.flatMap((p) => p.nodes).find((n) => n.hostname === "h100-b")!;
    expect(b.cordoned).toBe(true);
  });
});
