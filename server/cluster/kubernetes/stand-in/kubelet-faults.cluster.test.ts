import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CoreV1Api, type KubeConfig, type V1Pod } from "@kubernetes/client-node";
import { startStandIn, SimpleKubelet, type StandIn } from "./index.ts";
import { waitFor } from "./test-kit.ts";

let standIn: StandIn;
let kc: KubeConfig;
let core: CoreV1Api;
const kubelet = new SimpleKubelet({ startDelayMs: 10, readyDelayMs: 10, msPerBackoffSecond: 2 });

beforeAll(async () => {
  standIn = await startStandIn({ kubelet, migApplier: false });
  standIn.seedGpuNodes([{ name: "gpu-1" }]);
  kc = standIn.kubeConfig();
  core = kc.makeApiClient(CoreV1Api);
  kubelet.injectFault((p) => p.spec?.containers[0]?.image === "registry.example.com/kule/missing:404", { kind: "ImagePullBackOff" });
  kubelet.injectFault((p) => p.metadata.labels?.fault === "crash", { kind: "CrashLoopBackOff", exitCode: 2 });
  kubelet.injectFault((p) => p.metadata.labels?.fault === "oom", { kind: "OOMKilled" });
  kubelet.injectFault((p) => p.metadata.labels?.fault === "unready", { kind: "NotReady" });
});
afterAll(() => standIn.stop());

async function run(name: string, opts: { image?: string; fault?: string; restartPolicy?: string } = {}) {
  await core.createNamespacedPod({
    namespace: "default",
    body: {
      metadata: { name, labels: opts.fault ? { fault: opts.fault } : {} },
      spec: { restartPolicy: opts.restartPolicy, containers: [{ name: "vllm", image: opts.image ?? "vllm/vllm-openai:v0.11.0", resources: { limits: { "nvidia.com/gpu": "1" } } }] },
    },
  });
}

const podNow = (name: string) => core.readNamespacedPod({ namespace: "default", name });
const container = (p: V1Pod) => p.status!.containerStatuses![0]!;
const readyCondition = (p: V1Pod) => p.status!.conditions!.find((c) => c.type === "Ready")!;
const events = async (name: string) =>
  (await core.listNamespacedEvent({ namespace: "default", fieldSelector: `involvedObject.name=${name}` })).items.map((e) => `${e.type} ${e.reason}: ${e.message}`);

describe("the kubelet reports failing containers as a real node does", () => {
  it("ImagePullBackOff: ErrImagePull, then back-off, with the pod Pending", async () => {
    await run("pull", { image: "registry.example.com/kule/missing:404" });
    const p = await waitFor("ImagePullBackOff", async () => {
      const x = await podNow("pull");
      return x.status?.containerStatuses?.[0]?.state?.waiting?.reason === "ImagePullBackOff" && x;
    });
    expect(p.status!.phase).toBe("Pending");
    expect(container(p)).toMatchObject({ ready: false, started: false, restartCount: 0, state: { waiting: { message: 'Back-off pulling image "registry.example.com/kule/missing:404"' } } });
    expect(readyCondition(p)).toMatchObject({ status: "False", reason: "ContainersNotReady", message: "containers with unready status: [vllm]" });
    const log = await events("pull");
    expect(log).toContain('Normal Scheduled: Successfully assigned default/pull to gpu-1');
    expect(log.some((e) => e.startsWith('Warning Failed: Failed to pull image "registry.example.com/kule/missing:404": rpc error: code = NotFound'))).toBe(true);
    expect(log).toContain("Warning Failed: Error: ImagePullBackOff");
  });

  it("CrashLoopBackOff: restarts counted, the last exit kept in lastState, the pod Running but not Ready", async () => {
    await run("crash", { fault: "crash" });
    const p = await waitFor("two restarts", async () => {
      const x = await podNow("crash");
      const c = x.status?.containerStatuses?.[0];
      return c && c.restartCount >= 2 && c.state?.waiting?.reason === "CrashLoopBackOff" && x;
    });
    const c = container(p);
    expect(p.status!.phase).toBe("Running");
    expect(c.state!.waiting!.message).toBe(`back-off 20s restarting failed container=vllm pod=crash_default(${p.metadata!.uid})`);
    expect(c.lastState!.terminated).toMatchObject({ exitCode: 2, reason: "Error" });
    expect(c.lastState!.terminated!.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(readyCondition(p).status).toBe("False");
    expect((await events("crash")).some((e) => e.startsWith("Warning BackOff: Back-off restarting failed container vllm in pod crash_default("))).toBe(true);
  });

  it("OOMKilled: exit code 137 with the OOMKilled reason, terminal when the pod never restarts", async () => {
    await run("oom", { fault: "oom" });
    await run("oom-once", { fault: "oom", restartPolicy: "Never" });
    const restarting = await waitFor("an OOM restart", async () => {
      const x = await podNow("oom");
      return x.status?.containerStatuses?.[0]?.lastState?.terminated && x;
    });
    expect(container(restarting).lastState!.terminated).toMatchObject({ reason: "OOMKilled", exitCode: 137 });
    expect(container(restarting).restartCount).toBeGreaterThanOrEqual(1);
    const failed = await waitFor("the pod to fail", async () => {
      const x = await podNow("oom-once");
      return x.status?.phase === "Failed" && x;
    });
    expect(container(failed).state!.terminated).toMatchObject({ reason: "OOMKilled", exitCode: 137 });
    expect(container(failed).restartCount).toBe(0);
  });

  it("a failing readiness probe: running and started, never Ready, with an Unhealthy event", async () => {
    await run("unready", { fault: "unready" });
    await waitFor("the probe to fail", async () => (await events("unready")).some((e) => e.startsWith("Warning Unhealthy: Readiness probe failed")));
    const p = await podNow("unready");
    expect(p.status!.phase).toBe("Running");
    expect(container(p)).toMatchObject({ ready: false, started: true, state: { running: {} } });
    expect(readyCondition(p)).toMatchObject({ status: "False", reason: "ContainersNotReady" });
  });

  it("a healthy pod on the same node turns Running and Ready", async () => {
    await run("healthy");
    const p = await waitFor("Ready", async () => {
      const x = await podNow("healthy");
      return readyCondition(x)?.status === "True" && x;
    });
    expect(p.status!.phase).toBe("Running");
    expect(p.status!.conditions!.map((c) => `${c.type}=${c.status}`).sort()).toEqual([
      "ContainersReady=True",
      "Initialized=True",
      "PodReadyToStartContainers=True",
      "PodScheduled=True",
      "Ready=True",
    ]);
    expect(container(p).imageID).toMatch(/^docker\.io\/vllm\/vllm-openai@sha256:[0-9a-f]{64}$/);
    expect(standIn.controllerErrors).toEqual([]);
  });
});
