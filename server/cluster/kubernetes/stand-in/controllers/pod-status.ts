import { createHash, randomInt } from "node:crypto";
import { now } from "../kube-object.ts";
import type { Pod, PodStatus } from "./kubelet.ts";

/**
 * Pod status pieces shaped as the kubelet's status manager writes them, so what a driver reads
 * from the stand-in (container states, reasons, conditions) matches a real node's report.
 */
export type ContainerState =
  | { running: { startedAt: string } }
  | { waiting: { reason: string; message?: string } }
  | { terminated: { exitCode: number; reason: string; message?: string; startedAt: string; finishedAt: string; containerID: string } };

export interface ContainerReport {
  state: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  restartCount: number;
}

type Condition = NonNullable<PodStatus["conditions"]>[number];

export function containerId(pod: Pod, container: string, restart: number): string {
  return "containerd://" + createHash("sha256").update(`${pod.metadata.uid}/${container}/${restart}`).digest("hex");
}

/** An image reference as containerd normalises it: `vllm` → `docker.io/library/vllm:latest`. */
function imageRef(image: string): string {
  const [first, ...rest] = image.split("/");
  const hasRegistry = rest.length > 0 && (/[.:]/.test(first!) || first === "localhost");
  const named = hasRegistry ? image : rest.length ? `docker.io/${image}` : `docker.io/library/${image}`;
  const lastSegment = named.slice(named.lastIndexOf("/") + 1);
  return lastSegment.includes(":") || named.includes("@") ? named : `${named}:latest`;
}

export function imageId(image: string): string {
  const ref = imageRef(image).split("@")[0]!;
  const repo = ref.slice(0, ref.lastIndexOf("/") + 1) + ref.slice(ref.lastIndexOf("/") + 1).split(":")[0];
  return `${repo}@sha256:${createHash("sha256").update(image).digest("hex")}`;
}

export function podIp(): string {
  return `10.244.${randomInt(0, 256)}.${randomInt(2, 255)}`;
}

function condition(type: string, ok: boolean, at: string, reason?: string, message?: string): Condition {
  return { type, status: ok ? "True" : "False", lastProbeTime: null as unknown as string, lastTransitionTime: at, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

/**
 * The whole status for `reports` (one per container, in spec order). Phase follows the kubelet:
 * Pending until every container has started once, Running after, Failed when all terminated
 * and the restart policy lets none come back.
 */
export function buildStatus(pod: Pod, previous: PodStatus, reports: ContainerReport[], ips: { hostIP: string; podIP?: string }): PodStatus {
  const at = now();
  const containers = pod.spec?.containers ?? [];
  const statuses = containers.map((c, i) => {
    const r = reports[i]!;
    const started = "running" in r.state;
    const id = "terminated" in r.state ? r.state.terminated.containerID : started ? containerId(pod, c.name, r.restartCount) : undefined;
    return {
      name: c.name,
      image: c.image ?? "",
      imageID: started || "terminated" in r.state || r.restartCount > 0 ? imageId(c.image ?? "") : "",
      ...(id ? { containerID: id } : {}),
      ready: r.ready,
      restartCount: r.restartCount,
      started,
      state: r.state,
      lastState: r.lastState ?? {},
    };
  });
  const unready = statuses.filter((s) => !s.ready).map((s) => s.name);
  const readyMsg = unready.length ? `containers with unready status: [${unready.join(" ")}]` : undefined;
  const everStarted = reports.every((r) => !("waiting" in r.state) || r.restartCount > 0);
  const allTerminated = reports.every((r) => "terminated" in r.state);
  const phase = allTerminated && pod.spec?.restartPolicy !== "Always" ? (reports.every((r) => "terminated" in r.state && r.state.terminated.exitCode === 0) ? "Succeeded" : "Failed") : everStarted ? "Running" : "Pending";
  const keep = (type: string, next: Condition): Condition => {
    const old = previous.conditions?.find((c) => c.type === type);
    return old && old.status === next.status ? { ...next, lastTransitionTime: old.lastTransitionTime } : next;
  };
  const scheduled = previous.conditions?.find((c) => c.type === "PodScheduled") ?? condition("PodScheduled", true, at);
  return {
    ...previous,
    phase,
    conditions: [
      keep("PodReadyToStartContainers", condition("PodReadyToStartContainers", true, at)),
      keep("Initialized", condition("Initialized", true, at)),
      keep("Ready", condition("Ready", !readyMsg, at, readyMsg ? "ContainersNotReady" : undefined, readyMsg)),
      keep("ContainersReady", condition("ContainersReady", !readyMsg, at, readyMsg ? "ContainersNotReady" : undefined, readyMsg)),
      scheduled,
    ],
    hostIP: ips.hostIP,
    hostIPs: [{ ip: ips.hostIP }],
    ...(ips.podIP ? { podIP: ips.podIP, podIPs: [{ ip: ips.podIP }] } : {}),
    startTime: previous.startTime ?? at,
    containerStatuses: statuses as PodStatus["containerStatuses"],
  };
}

/** The kubelet's CrashLoopBackOff delay: 10 s doubling to 5 minutes. */
export function crashBackoffSeconds(restartCount: number): number {
  return Math.min(300, 10 * 2 ** Math.max(0, restartCount - 1));
}

export function backoffText(seconds: number): string {
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60 ? `${seconds % 60}s` : "0s"}` : `${seconds}s`;
}

export function pullFailure(image: string): string {
  const ref = imageRef(image);
  return `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
}
