import { EventEmitter } from "node:events";
import type { ClusterEvent, Device, ReplicaStatus } from "../driver.ts";
import { ConflictError, NotFoundError, TimeoutError } from "../../errors.ts";
import { KULE, type PodObj } from "./kube-types.ts";
import { podReplicaState } from "./pod-state.ts";
import { engineMetrics } from "./workload.ts";

/** What Kule asked for one replica: its workload, the device (and so the node) it placed it on. */
export interface Wanted {
  id: string;
  workload: string;
  device: Device;
  host: string;
  region: string | null;
  /** Set once Kule stops it: how long in-flight requests may take. */
  stopping?: { drainMs: number };
}

const podKey = (p: PodObj) => `${p.metadata?.namespace}/${p.metadata?.name}`;

/**
 * Which pod serves which replica, and each replica's status as its pod shows it. A pod is bound
 * to a replica by Kule's annotation (set when Kule lifts the pod's scheduling gate), so the
 * binding survives a restart of Kule: a pod found annotated is a replica Kule wants.
 */
export class ReplicaBook {
  readonly wanted = new Map<string, Wanted>();
  private readonly podOf = new Map<string, PodObj>();
  private readonly last = new Map<string, ReplicaStatus>();
  private readonly everReady = new Set<string>();
  private readonly events = new EventEmitter();

  constructor(
    private readonly port: number,
    /** Why a node cannot run pods now (its Ready condition), or null when it can. */
    private readonly nodeProblem: (hostname: string) => string | null = () => null,
  ) {
    this.events.setMaxListeners(0);
  }

  subscribe(listener: (e: ClusterEvent) => void): () => void {
    this.events.on("event", listener);
    return () => this.events.off("event", listener);
  }

  emit(e: ClusterEvent): void {
    this.events.emit("event", e);
  }

  pod(id: string): PodObj | undefined {
    return this.podOf.get(id);
  }

  /** Pods of `workload` no replica holds yet, oldest first. */
  unboundPods(pods: Iterable<PodObj>, workload: string): PodObj[] {
    return [...pods]
      .filter((p) => p.metadata?.labels?.[KULE.workload] === workload && !p.metadata?.annotations?.[KULE.replica] && !p.metadata?.deletionTimestamp)
      .sort((a, b) => String(a.metadata?.creationTimestamp).localeCompare(String(b.metadata?.creationTimestamp)));
  }

  /** Replicas of `workload` Kule wants that have no pod (new, or whose pod went away). */
  podless(workload: string): Wanted[] {
    return [...this.wanted.values()].filter((w) => w.workload === workload && !w.stopping && !this.podOf.has(w.id));
  }

  /** A pod changed (or went away): rebind it and report its replica's new status. */
  onPod(type: "ADDED" | "MODIFIED" | "DELETED", pod: PodObj): void {
    const id = pod.metadata?.annotations?.[KULE.replica];
    if (!id) return;
    if (type === "DELETED") return this.podGone(id, pod);
    let w = this.wanted.get(id);
    if (!w) {
      // Found on a (re)list: a replica Kule started before this process did.
      const device = JSON.parse(pod.metadata?.annotations?.[KULE.device] ?? "null") as Device | null;
      if (!device) return;
      w = { id, workload: pod.metadata?.labels?.[KULE.workload] ?? "", device, host: pod.spec?.nodeSelector?.["kubernetes.io/hostname"] ?? "", region: null };
      if (pod.metadata?.deletionTimestamp) w.stopping = { drainMs: Number(pod.metadata.annotations?.[KULE.drainMs] ?? 0) };
      this.wanted.set(id, w);
    }
    this.podOf.set(id, pod);
    if (pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True")) this.everReady.add(pod.metadata!.uid!);
    this.report(id);
  }

  private podGone(id: string, pod: PodObj): void {
    const bound = this.podOf.get(id);
    if (bound && podKey(bound) !== podKey(pod)) return;
    this.podOf.delete(id);
    this.everReady.delete(pod.metadata?.uid ?? "");
    const w = this.wanted.get(id);
    if (!w) return void this.last.delete(id);
    // Kule marks a pod it stops with its drain time first, so every Kule process knows a stop from a loss.
    if (w.stopping || pod.metadata?.annotations?.[KULE.drainMs] !== undefined) {
      this.wanted.delete(id);
      this.publish({ ...this.status(id, w), state: "stopped", reason: null, url: null });
      this.last.delete(id);
      return;
    }
    // Gone without Kule asking (evicted, its node lost): the workload makes a new pod, which this replica takes.
    this.publish({ ...this.status(id, w), state: "pending", reason: "Its pod was deleted by Kubernetes (evicted or its node lost); waiting for the replacement.", url: null });
  }

  /** The replica's status as its pod shows it now. */
  status(id: string, w = this.wanted.get(id)): ReplicaStatus {
    if (!w) throw new NotFoundError("Replica", { message: `No Kubernetes replica ${id}` });
    const pod = this.podOf.get(id);
    const base: ReplicaStatus = { id, state: "pending", reason: "Waiting for Kubernetes to create its pod.", url: null, device: w.device, hostname: w.host, region: w.region, expectedReadyAt: null, inFlight: 0 };
    if (!pod) return base;
    let { state, reason } = podReplicaState(pod, this.everReady.has(pod.metadata?.uid ?? ""));
    const node = pod.spec?.nodeName;
    const problem = node && state !== "draining" && state !== "pending" ? this.nodeProblem(node) : null;
    if (problem) [state, reason] = ["failed", `Its node ${node} is not ready (${problem}): Kule sends it no requests until the node is back.`];
    const ip = pod.status?.podIP;
    const serving = ip && state !== "pending";
    return { ...base, state, reason, url: serving ? `http://${ip}:${this.port}` : null, ...(serving ? engineMetrics(pod, ip, this.port) : {}), hostname: pod.spec?.nodeName ?? w.host };
  }

  report(id: string): void {
    if (this.wanted.has(id)) this.publish(this.status(id));
  }

  /** A node's readiness changed: its replicas' statuses may have. */
  reportNode(hostname: string): void {
    for (const [id, pod] of this.podOf) if (pod.spec?.nodeName === hostname) this.report(id);
  }

  private publish(s: ReplicaStatus): void {
    const before = this.last.get(s.id);
    if (before && before.state === s.state && before.reason === s.reason && before.url === s.url) return;
    this.last.set(s.id, s);
    this.emit({ type: "replica", replica: s, at: Date.now() });
  }

  list(): ReplicaStatus[] {
    return [...this.wanted.keys()].map((id) => this.status(id));
  }

  /** Resolves when the replica is ready; rejects with its reason when it fails or stops, or at the timeout. */
  awaitState(id: string, timeoutMs: number): Promise<ReplicaStatus> {
    const now = this.status(id);
    if (now.state === "ready") return Promise.resolve(now);
    if (now.state === "failed") return Promise.reject(new ConflictError(now.reason ?? "Replica failed"));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new TimeoutError(`Replica ${id} not ready after ${timeoutMs} ms: ${this.last.get(id)?.reason ?? "no word from Kubernetes"}`));
      }, timeoutMs);
      const off = this.subscribe((e) => {
        if (e.type !== "replica" || e.replica.id !== id) return;
        const { state, reason } = e.replica;
        if (state !== "ready" && state !== "failed" && state !== "stopped") return;
        clearTimeout(timer);
        off();
        if (state === "ready") resolve(e.replica);
        else reject(new ConflictError(reason ?? `Replica is ${state}`));
      });
    });
  }

  /** Resolves once the replica's pod is gone (or at `timeoutMs`). */
  awaitGone(id: string, timeoutMs: number): Promise<boolean> {
    if (!this.wanted.has(id)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => (off(), resolve(false)), timeoutMs);
      const off = this.subscribe((e) => {
        if (e.type !== "replica" || e.replica.id !== id || e.replica.state !== "stopped") return;
        clearTimeout(timer);
        off();
        resolve(true);
      });
    });
  }

  forget(id: string): void {
    const w = this.wanted.get(id);
    this.wanted.delete(id);
    this.podOf.delete(id);
    if (w) this.publish({ ...this.status(id, w), state: "stopped", reason: null, url: null });
    this.last.delete(id);
  }
}
