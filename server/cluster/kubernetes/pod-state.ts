import type { ReplicaState } from "../driver.ts";
import type { ContainerStatus, PodObj } from "./kube-types.ts";

const PULL_FAILURES = new Set(["ErrImagePull", "ImagePullBackOff", "InvalidImageName", "ErrImageNeverPull"]);
const STARTING = new Set(["ContainerCreating", "PodInitializing"]);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function exitWords(t: NonNullable<NonNullable<ContainerStatus["state"]>["terminated"]>): string {
  if (t.reason === "OOMKilled") return `it was killed for using more memory than its limit (OOMKilled, exit code ${t.exitCode}): raise its memory limit or place it on a device with more memory`;
  const said = t.message?.trim().split("\n").filter(Boolean).at(-1)?.replace(/\.$/, "");
  return `the engine exited with code ${t.exitCode}${t.reason && t.reason !== "Error" ? ` (${t.reason})` : ""}${said ? `: ${said}` : ""}`;
}

/**
 * A pod's state as a Kule replica's, with the reason in words an operator can act on: why it is
 * not placed (the scheduler's own message), why its image does not pull, why its engine keeps
 * exiting (OOMKilled included), or that it runs but fails its readiness probe.
 */
export function podReplicaState(pod: PodObj, wasReady: boolean): { state: ReplicaState; reason: string | null } {
  if (pod.metadata?.deletionTimestamp) return { state: "draining", reason: null };
  const conditions = pod.status?.conditions ?? [];
  if (!pod.spec?.nodeName) {
    if (pod.spec?.schedulingGates?.length) return { state: "pending", reason: "Waiting for Kule to place it on its node." };
    const scheduled = conditions.find((c) => c.type === "PodScheduled");
    if (scheduled?.status === "False" && scheduled.reason === "Unschedulable") {
      return { state: "pending", reason: `Kubernetes cannot place it: ${scheduled.message ?? "no node fits"}` };
    }
    return { state: "pending", reason: "Waiting for the scheduler." };
  }
  const c = pod.status?.containerStatuses?.[0];
  if (pod.status?.phase === "Failed") return { state: "failed", reason: `The pod failed${c?.state?.terminated ? `: ${exitWords(c.state.terminated)}` : "."}` };
  if (!c) return { state: "loading", reason: "Starting its container." };
  const { waiting, terminated, running } = c.state ?? {};
  if (waiting?.reason && PULL_FAILURES.has(waiting.reason)) {
    return { state: "failed", reason: `The node cannot pull image ${c.image ?? ""} (${waiting.reason}): ${waiting.message ?? "no reason given"}. Check the image name and tag, and the registry's credentials (imagePullSecrets).` };
  }
  if (waiting?.reason === "CrashLoopBackOff") {
    const last = c.lastState?.terminated;
    const why = last ? exitWords(last) : "the engine keeps exiting";
    return { state: "failed", reason: `Crash loop: ${why}. Restarted ${plural(c.restartCount, "time")}; Kubernetes waits longer before each restart.` };
  }
  if (waiting?.reason && !STARTING.has(waiting.reason)) return { state: "failed", reason: `Kubernetes cannot start its container (${waiting.reason}): ${waiting.message ?? "no reason given"}` };
  if (terminated) return { state: "failed", reason: `It stopped: ${exitWords(terminated)}.` };
  if (!running) return { state: "loading", reason: waiting?.reason === "ContainerCreating" ? "Pulling its image and creating its container." : "Starting its container." };
  const ready = conditions.some((x) => x.type === "Ready" && x.status === "True");
  if (ready) return { state: "ready", reason: null };
  if (wasReady) return { state: "failed", reason: "Running but not ready: its readiness probe fails, so Kule sends it no requests until it passes again." };
  return { state: "loading", reason: c.restartCount ? `Loading again after ${plural(c.restartCount, "restart")}.` : "Loading the model: waiting for its readiness probe to pass." };
}
