import type { SimCluster } from "../../sim/cluster.ts";
import type { Device, ReplicaSpec } from "../../driver.ts";
import type { Kubelet, Pod, PodStatusWriter } from "../stand-in/index.ts";
import { backoffText, buildStatus, crashBackoffSeconds, type ContainerReport } from "../stand-in/controllers/pod-status.ts";
import { KULE } from "../kube-types.ts";
import { gpuUuid } from "../../gpu-uuid.ts";
import { SERVING_PORT } from "../workload.ts";

export interface SimKubeletOptions {
  /** Real milliseconds per second of the kubelet's restart back-off (10 s, 20 s, … for crash loops). */
  msPerBackoffSecond?: number;
}

interface Run {
  pod: Pod;
  writer: PodStatusWriter;
  id: string;
  spec: ReplicaSpec | null;
  ip: string;
  report: ContainerReport;
  timers: Set<NodeJS.Timeout>;
  off?: () => void;
  gone: boolean;
}

const now = () => new Date().toISOString();

/**
 * The simulator's name for a device the Kubernetes driver named: GPUs are known to Kubernetes by
 * node and index (gpuUuid), to a simulated topology by whatever UUIDs it was given. A group's
 * leader pod runs the whole group's engine (all stages), as vLLM's leader drives its Ray workers;
 * the workers' pods run no engine of their own.
 */
function simDevice(cluster: SimCluster, device: Device): Device {
  const simUuid = (uuid: string): string => {
    if (cluster.inventory.gpus.has(uuid)) return uuid;
    for (const node of cluster.inventory.nodes.values()) {
      for (const g of node.gpus) if (gpuUuid(node.hostname, g.index) === uuid) return g.uuid;
    }
    return uuid;
  };
  if (device.kind === "group") return { ...device, gpuUuids: device.gpuUuids.map(simUuid) };
  if (device.kind !== "gpu" && device.kind !== "mig") return device;
  return { ...device, gpuUuid: simUuid(device.gpuUuid) };
}

/** The spec of the simulated engine a Kule pod runs, from what Kule wrote on it. */
function specOf(cluster: SimCluster, pod: Pod, id: string): ReplicaSpec | null {
  const a = pod.metadata.annotations ?? {};
  const named = JSON.parse(a[KULE.device] ?? "null") as Device | null;
  if (!named || !a[KULE.model.servedName]) return null;
  const device = simDevice(cluster, named);
  return {
    id,
    endpointSlug: a[KULE.model.endpoint] ?? "",
    servedModelName: a[KULE.model.servedName]!,
    versionId: pod.metadata.labels?.[KULE.versionId] ?? "",
    versionLabel: a[KULE.model.version] ?? "",
    task: (a[KULE.model.task] ?? "llm") as ReplicaSpec["task"],
    weightBytes: Number(a[KULE.model.weightBytes] ?? 0),
    parameterCount: Number(a[KULE.model.parameters] ?? 0),
    device,
  };
}

/**
 * The stand-in's kubelet on every simulated node: a pod bound to a node starts a simulated
 * engine (SimCluster) on the device Kule placed it on, listening on the pod's own loopback
 * address at the serving port; the container turns ready when the engine is, and when the engine
 * dies (out of memory, an XID, a kill) the container terminates with its last words and restarts
 * with the kubelet's back-off. A node the simulator has taken down posts nothing until it is back.
 */
export class SimKubelet implements Kubelet {
  private readonly runs = new Map<string, Run>();
  private nextIp = 0;
  private readonly msPerBackoffSecond: number;

  constructor(
    private readonly cluster: SimCluster,
    o: SimKubeletOptions = {},
  ) {
    this.msPerBackoffSecond = o.msPerBackoffSecond ?? 100;
  }

  private nodeDown(pod: Pod): boolean {
    return this.cluster.inventory.nodes.get(pod.spec?.nodeName ?? "")?.status === "down";
  }

  podBound(pod: Pod, writer: PodStatusWriter): void {
    const id = pod.metadata.annotations?.[KULE.replica] ?? `pod:${pod.metadata.uid}`;
    const n = this.nextIp++;
    const run: Run = { pod, writer, id, spec: specOf(this.cluster, pod, id), ip: `127.10.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`, report: { state: { waiting: { reason: "ContainerCreating" } }, ready: false, restartCount: 0 }, timers: new Set(), gone: false };
    this.runs.set(pod.metadata.uid!, run);
    this.publish(run);
    writer.event("Normal", "Pulling", `Pulling image "${pod.spec?.containers[0]?.image}"`);
    void this.launch(run);
  }

  async podTerminating(pod: Pod, gracePeriodSeconds: number): Promise<void> {
    const run = this.runs.get(pod.metadata.uid!);
    if (!run) return;
    this.clear(run);
    const drainMs = Math.min(Number(pod.metadata.annotations?.[KULE.drainMs] ?? 0), gracePeriodSeconds * 1000);
    if (this.cluster.replicas.has(run.id)) await this.cluster.stopReplica(run.id, drainMs).catch(() => {});
  }

  podRemoved(pod: Pod): void {
    const run = this.runs.get(pod.metadata.uid!);
    if (!run) return;
    run.gone = true;
    this.clear(run);
    this.runs.delete(pod.metadata.uid!);
    if (this.cluster.replicas.has(run.id)) void this.cluster.stopReplica(run.id).catch(() => {});
  }

  /** A node the simulator brought back: its kubelet restarts the containers whose engines died meanwhile. */
  nodeUp(hostname: string): void {
    for (const run of this.runs.values()) {
      if (run.pod.spec?.nodeName !== hostname || run.gone) continue;
      const engine = this.cluster.replicas.get(run.id);
      if (!engine || engine.state === "failed") this.crashed(run, engine?.reason ?? `Node ${hostname} restarted.`);
    }
  }

  shutdown(): void {
    for (const run of this.runs.values()) this.clear(run);
    this.runs.clear();
  }

  private async launch(run: Run): Promise<void> {
    if (run.gone) return;
    if (!run.spec) {
      // Not a Kule pod (another GPU workload): it simply runs.
      run.report = { state: { running: { startedAt: now() } }, ready: true, restartCount: run.report.restartCount };
      return this.publish(run);
    }
    if (this.cluster.replicas.has(run.id)) await this.cluster.stopReplica(run.id).catch(() => {});
    let status;
    try {
      status = await this.cluster.startReplica(run.spec, { listen: { host: run.ip, port: SERVING_PORT } });
    } catch (e) {
      return this.crashed(run, (e as Error).message);
    }
    if (run.gone) return void this.cluster.stopReplica(run.id).catch(() => {});
    run.report = { state: { running: { startedAt: now() } }, ready: false, restartCount: run.report.restartCount, lastState: run.report.lastState };
    run.writer.event("Normal", "Started", "Started container engine");
    this.publish(run);
    run.off = this.cluster.subscribe((e) => {
      if (e.type !== "replica" || e.replica.id !== run.id) return;
      if (e.replica.state === "ready") this.ready(run);
      else if (e.replica.state === "failed") this.crashed(run, e.replica.reason ?? "The engine exited.");
    });
    if (status.state === "ready") this.ready(run);
  }

  private ready(run: Run): void {
    if (run.gone || this.nodeDown(run.pod)) return;
    run.report = { ...run.report, ready: true };
    this.publish(run);
  }

  /** The engine died: the container terminates with its last words, then restarts after the back-off. */
  private crashed(run: Run, message: string): void {
    run.off?.();
    run.off = undefined;
    if (run.gone || this.nodeDown(run.pod)) return;
    const startedAt = "running" in run.report.state ? run.report.state.running.startedAt : now();
    const terminated = { terminated: { exitCode: 1, reason: "Error", message, startedAt, finishedAt: now(), containerID: "" } };
    const restarts = run.report.restartCount + 1;
    const backoff = crashBackoffSeconds(restarts);
    const name = run.pod.spec?.containers[0]?.name ?? "engine";
    run.report = { state: { waiting: { reason: "CrashLoopBackOff", message: `back-off ${backoffText(backoff)} restarting failed container=${name} pod=${run.pod.metadata.name}_${run.pod.metadata.namespace}(${run.pod.metadata.uid})` } }, lastState: terminated, ready: false, restartCount: restarts };
    run.writer.event("Warning", "BackOff", `Back-off restarting failed container ${name} in pod ${run.pod.metadata.name}_${run.pod.metadata.namespace}(${run.pod.metadata.uid})`);
    this.publish(run);
    const t = setTimeout(() => {
      run.timers.delete(t);
      void this.launch(run);
    }, backoff * this.msPerBackoffSecond);
    run.timers.add(t);
  }

  private publish(run: Run): void {
    if (run.gone || this.nodeDown(run.pod)) return;
    const hostIP = `192.168.0.${(run.pod.spec?.nodeName ?? "").length + 10}`;
    const podIP = "waiting" in run.report.state && run.report.restartCount === 0 ? undefined : run.ip;
    if (!run.writer.update((status) => buildStatus(run.pod, status, [run.report], { hostIP, podIP }))) {
      run.gone = true;
      this.clear(run);
    }
  }

  private clear(run: Run): void {
    run.off?.();
    run.off = undefined;
    for (const t of run.timers) clearTimeout(t);
    run.timers.clear();
  }
}
