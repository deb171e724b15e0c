import { describe, expect, it } from "vitest";
import { podReplicaState } from "./pod-state.ts";
import type { PodObj } from "./kube-types.ts";

const pod = (status: PodObj["status"], spec: PodObj["spec"] = { nodeName: "gpu-1" }, deleting = false): PodObj => ({
  metadata: { name: "p", ...(deleting ? { deletionTimestamp: "2026-12-01T00:00:00Z" } : {}) },
  spec,
  status,
});
const container = (state: object, extra: object = {}) => ({ containerStatuses: [{ name: "engine", image: "vllm/vllm-openai:v0.11.0", ready: false, restartCount: 0, state, ...extra }] });

describe("a pod as a replica's state, in words an operator can act on", () => {
  it("pending: behind Kule's gate, or with the scheduler's message", () => {
    expect(podReplicaState(pod({}, { schedulingGates: [{ name: "kule.io/placement" }] }), false).reason).toMatch(/Waiting for Kule/);
    const unschedulable = pod({ conditions: [{ type: "PodScheduled", status: "False", reason: "Unschedulable", message: "0/3 nodes are available: 3 Insufficient nvidia.com/gpu." }] }, {});
    expect(podReplicaState(unschedulable, false)).toEqual({ state: "pending", reason: "Kubernetes cannot place it: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu." });
  });

  it("failed: an image that does not pull, a crash loop (OOMKilled or with the engine's last words)", () => {
    expect(podReplicaState(pod(container({ waiting: { reason: "ImagePullBackOff", message: "Back-off pulling image" } })), false)).toMatchObject({ state: "failed", reason: expect.stringMatching(/cannot pull image vllm\/vllm-openai:v0\.11\.0 \(ImagePullBackOff\).*credentials/) });
    const oom = container({ waiting: { reason: "CrashLoopBackOff" } }, { restartCount: 3, lastState: { terminated: { exitCode: 137, reason: "OOMKilled" } } });
    expect(podReplicaState(pod(oom), false).reason).toMatch(/^Crash loop: it was killed for using more memory than its limit \(OOMKilled, exit code 137\).*Restarted 3 times/);
    const crash = container({ waiting: { reason: "CrashLoopBackOff" } }, { restartCount: 1, lastState: { terminated: { exitCode: 1, reason: "Error", message: "loading\ntorch.OutOfMemoryError: CUDA out of memory." } } });
    expect(podReplicaState(pod(crash), false).reason).toBe("Crash loop: the engine exited with code 1: torch.OutOfMemoryError: CUDA out of memory. Restarted 1 time; Kubernetes waits longer before each restart.");
  });

  it("loading until its readiness probe passes, ready after; unready again is a failure until it recovers", () => {
    const running = container({ running: { startedAt: "2026-12-01T00:00:00Z" } });
    expect(podReplicaState(pod({ ...running, phase: "Running" }), false).state).toBe("loading");
    expect(podReplicaState(pod({ ...running, phase: "Running", conditions: [{ type: "Ready", status: "True" }] }), false)).toEqual({ state: "ready", reason: null });
    expect(podReplicaState(pod({ ...running, phase: "Running" }), true)).toMatchObject({ state: "failed", reason: expect.stringMatching(/readiness probe fails/) });
    expect(podReplicaState(pod({ ...running }, { nodeName: "gpu-1" }, true), true).state).toBe("draining");
  });
});
