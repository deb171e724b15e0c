import { now } from "../kube-object.ts";
import type { Kubelet, Pod, PodStatusWriter } from "./kubelet.ts";
import { backoffText, buildStatus, containerId, crashBackoffSeconds, podIp, pullFailure, type ContainerReport } from "./pod-status.ts";

/** The ways a real node fails a container that tests need to see. */
export type PodFault =
  | { kind: "ImagePullBackOff" }
  | { kind: "CrashLoopBackOff"; exitCode?: number }
  | { kind: "OOMKilled" }
  | { kind: "NotReady"; probeMessage?: string };

export interface SimpleKubeletOptions {
  /** From binding to containers running (pull + create + start). */
  startDelayMs?: number;
  /** From running to the readiness probe passing. */
  readyDelayMs?: number;
  /** How long a terminating pod's containers take to stop. */
  stopDelayMs?: number;
  /** Real time per second of the kubelet's back-off schedule (10 s, 20 s, … for crash loops). */
  msPerBackoffSecond?: number;
  /** A node's InternalIP; the default is derived from the node name. */
  hostIP?: (nodeName: string) => string;
}

interface Run {
  pod: Pod;
  writer: PodStatusWriter;
  reports: ContainerReport[];
  podIP: string;
  timers: Set<NodeJS.Timeout>;
}

/**
 * A kubelet for tests: pods start after a delay and turn Ready, unless a fault was injected for
 * them, in which case they fail the way a real node reports it (waiting/terminated reasons,
 * restart counts, last states, events). The first container carries the fault.
 */
export class SimpleKubelet implements Kubelet {
  private readonly runs = new Map<string, Run>();
  private readonly faults: { match: (pod: Pod) => boolean; fault: PodFault }[] = [];
  private readonly o: Required<SimpleKubeletOptions>;

  constructor(options: SimpleKubeletOptions = {}) {
    this.o = {
      startDelayMs: options.startDelayMs ?? 20,
      readyDelayMs: options.readyDelayMs ?? 20,
      stopDelayMs: options.stopDelayMs ?? 10,
      msPerBackoffSecond: options.msPerBackoffSecond ?? 5,
      hostIP: options.hostIP ?? ((n) => `192.168.${[...n].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 250, 7)}.10`),
    };
  }

  /** Makes matching pods fail with `fault`: those bound from now on, and those running now (restarted with it). */
  injectFault(match: (pod: Pod) => boolean, fault: PodFault): void {
    this.faults.push({ match, fault });
    for (const run of this.runs.values()) if (match(run.pod)) this.begin(run);
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  podBound(pod: Pod, writer: PodStatusWriter): void {
    const run: Run = { pod, writer, reports: [], podIP: podIp(), timers: new Set() };
    this.runs.set(pod.metadata.uid!, run);
    this.begin(run);
  }

  podTerminating(pod: Pod, gracePeriodSeconds: number): Promise<void> {
    const run = this.runs.get(pod.metadata.uid!);
    if (run) this.clear(run);
    const ms = Math.min(this.o.stopDelayMs, gracePeriodSeconds * 1000);
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  podRemoved(pod: Pod): void {
    const run = this.runs.get(pod.metadata.uid!);
    if (run) this.clear(run);
    this.runs.delete(pod.metadata.uid!);
  }

  /** Stops every timer: for a stand-in shutting down. */
  shutdown(): void {
    for (const run of this.runs.values()) this.clear(run);
    this.runs.clear();
  }

  private begin(run: Run): void {
    this.clear(run);
    const { pod, writer } = run;
    const containers = pod.spec?.containers ?? [];
    const fault = this.faults.findLast((f) => f.match(pod))?.fault;
    const image = containers[0]?.image ?? "";
    run.reports = containers.map((_, i) => ({ state: { waiting: { reason: "ContainerCreating" } }, ready: false, restartCount: run.reports[i]?.restartCount ?? 0 }));
    this.publish(run, false);
    writer.event("Normal", "Pulling", `Pulling image "${image}"`);
    this.after(run, this.o.startDelayMs, () => {
      if (fault?.kind === "ImagePullBackOff") return this.failPull(run, image);
      run.reports = containers.map((c, i) => ({ state: { running: { startedAt: now() } }, ready: false, restartCount: run.reports[i]!.restartCount }));
      writer.event("Normal", "Pulled", `Successfully pulled image "${image}" in ${this.o.startDelayMs}ms (${this.o.startDelayMs}ms including waiting). Image size: 52428800 bytes.`);
      for (const c of containers) writer.event("Normal", "Created", `Created container: ${c.name}`);
      for (const c of containers) writer.event("Normal", "Started", `Started container ${c.name}`);
      this.publish(run, true);
      if (fault?.kind === "CrashLoopBackOff" || fault?.kind === "OOMKilled") return this.after(run, this.o.readyDelayMs, () => this.crash(run, fault));
      this.after(run, this.o.readyDelayMs, () => {
        if (fault?.kind === "NotReady") {
          writer.event("Warning", "Unhealthy", `Readiness probe failed: ${fault.probeMessage ?? "HTTP probe failed with statuscode: 503"}`);
          return;
        }
        for (const r of run.reports) r.ready = true;
        this.publish(run, true);
      });
    });
  }

  private failPull(run: Run, image: string): void {
    const [first, ...rest] = run.reports;
    first!.state = { waiting: { reason: "ErrImagePull", message: pullFailure(image) } };
    for (const r of rest) r.state = { waiting: { reason: "PodInitializing" } };
    run.writer.event("Warning", "Failed", `Failed to pull image "${image}": ${pullFailure(image)}`);
    run.writer.event("Warning", "Failed", "Error: ErrImagePull");
    this.publish(run, false);
    this.after(run, 10 * this.o.msPerBackoffSecond, () => {
      first!.state = { waiting: { reason: "ImagePullBackOff", message: `Back-off pulling image "${image}"` } };
      run.writer.event("Normal", "BackOff", `Back-off pulling image "${image}"`);
      run.writer.event("Warning", "Failed", "Error: ImagePullBackOff");
      this.publish(run, false);
    });
  }

  /** The first container exits (OOM: 137, killed by the kernel), and the restart loop backs off. */
  private crash(run: Run, fault: Extract<PodFault, { kind: "CrashLoopBackOff" | "OOMKilled" }>): void {
    const { pod, writer } = run;
    const first = run.reports[0]!;
    const name = pod.spec!.containers[0]!.name;
    const startedAt = "running" in first.state ? first.state.running.startedAt : now();
    const oom = fault.kind === "OOMKilled";
    const terminated = {
      terminated: {
        exitCode: oom ? 137 : (fault.exitCode ?? 1),
        reason: oom ? "OOMKilled" : "Error",
        startedAt,
        finishedAt: now(),
        containerID: containerId(pod, name, first.restartCount),
      },
    };
    first.ready = false;
    if (pod.spec?.restartPolicy === "Never") {
      first.state = terminated;
      return this.publish(run, false);
    }
    first.lastState = terminated;
    first.restartCount += 1;
    const backoff = crashBackoffSeconds(first.restartCount);
    first.state = { waiting: { reason: "CrashLoopBackOff", message: `back-off ${backoffText(backoff)} restarting failed container=${name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})` } };
    writer.event("Warning", "BackOff", `Back-off restarting failed container ${name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`);
    this.publish(run, true);
    this.after(run, backoff * this.o.msPerBackoffSecond, () => {
      first.state = { running: { startedAt: now() } };
      writer.event("Normal", "Started", `Started container ${name}`);
      this.publish(run, true);
      this.after(run, this.o.readyDelayMs, () => this.crash(run, fault));
    });
  }

  private publish(run: Run, withPodIP: boolean): void {
    const nodeName = run.pod.spec?.nodeName ?? "";
    const ok = run.writer.update((status) =>
      buildStatus(run.pod, status, run.reports, { hostIP: this.o.hostIP(nodeName), podIP: withPodIP ? run.podIP : undefined }),
    );
    if (!ok) this.clear(run);
  }

  private after(run: Run, ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      run.timers.delete(t);
      fn();
    }, ms);
    run.timers.add(t);
  }

  private clear(run: Run): void {
    for (const t of run.timers) clearTimeout(t);
    run.timers.clear();
  }
}
