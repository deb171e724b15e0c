import type { ReplicaSpec, ReplicaStatus } from "../driver.ts";
import { ConflictError, isErrorKind, NotFoundError } from "../../errors.ts";
import type { JsonPatchOp, KubeClient } from "./kube-client.ts";
import { DELETION_COST, GPU, KULE, LWS, type DeploymentObj, type NodeObj, type PodObj } from "./kube-types.ts";
import type { Reflector } from "./reflector.ts";
import type { ReplicaBook } from "./replica-book.ts";
import { nodePool, nodeRegion, nodeStatus, type NodeReading } from "./node-topology.ts";
import type { KubernetesSettings } from "./settings.ts";
import { deploymentManifest, engineOf, inferenceServiceManifest, isLeaderWorkerSet, serviceManifest, SERVING_PORT, withoutCount, workloadName, type Shape } from "./workload.ts";
import { groupStageHosts, podPlacement } from "./device-shape.ts";
import { leaderWorkerSetManifest, workerIndex } from "./leader-worker-set.ts";

export interface WorkloadDeps {
  client: KubeClient;
  settings: KubernetesSettings;
  book: ReplicaBook;
  pods: Reflector<PodObj>;
  workloads: Reflector<DeploymentObj & { spec?: { predictor?: { minReplicas?: number } } }>;
  node(name: string): NodeObj | undefined;
  nodes(): Iterable<NodeObj>;
  reading(): NodeReading;
  /** Where a failure with nobody waiting for it goes. */
  onError(e: unknown): void;
}

const keyOf = (p: PodObj) => `${p.metadata?.namespace}/${p.metadata?.name}`;
const podRef = (p: PodObj) => ({ apiVersion: "v1", kind: "Pod", metadata: { name: p.metadata?.name, namespace: p.metadata?.namespace } });

/**
 * Replicas as pods of one workload per endpoint version: starting one scales the workload up by
 * one and, when its new pod appears behind Kule's scheduling gate, binds the pod to the replica
 * and pins it to the node Kule placed it on (lifting the gate); stopping one marks its pod the
 * cheapest to delete, with its drain time, and scales down by one. Replica counts change by merge
 * patches carrying the workload's resourceVersion, so two writers never lose an update (409 → reread).
 * A replica across nodes is a LeaderWorkerSet of its own: created to start, deleted to stop, its
 * leader bound like any replica's pod and each worker pinned to its stage's node.
 */
export class ReplicaWorkloads {
  private readonly adoptingPods = new Set<string>();
  private readonly adoptingReplicas = new Set<string>();
  /** The workload as Kule last wrote it, until the watch catches up. */
  private readonly recent = new Map<string, DeploymentObj>();
  private readonly isvc: boolean;
  /** Set when the driver closes: no more claims. */
  closed = false;

  constructor(private readonly d: WorkloadDeps) {
    this.isvc = d.settings.workload === "inferenceservice";
  }

  async start(spec: ReplicaSpec): Promise<ReplicaStatus> {
    const { book } = this.d;
    if (book.wanted.has(spec.id)) throw new ConflictError(`Replica ${spec.id} already exists`);
    const { host, stageHosts, shape } = podPlacement(spec.device, () => this.d.nodes(), this.d.reading(), engineOf(spec));
    for (const h of new Set(stageHosts)) {
      const n = this.d.node(h);
      if (!n) throw new NotFoundError("Node", { message: `Kubernetes has no node ${h}` });
      if (n.spec?.unschedulable) throw new ConflictError(`Node ${h} is cordoned: uncordon it to place replicas`);
      if (nodeStatus(n) !== "ready") throw new ConflictError(`Node ${h} is not ready`);
    }
    const node = this.d.node(host)!;
    // The pod's pool is the node's (what Kule placed it on), whatever the spec says.
    spec = { ...spec, pool: nodePool(node, this.d.settings.poolLabel) };
    const workload = workloadName(spec, shape, this.isvc && shape.kind !== "lws" ? "isvc" : "deployment");
    book.wanted.set(spec.id, { id: spec.id, workload, device: spec.device, host, region: nodeRegion(node) });
    book.report(spec.id);
    try {
      if (shape.kind === "lws") await this.d.client.create(leaderWorkerSetManifest(spec, shape, this.options()));
      else await this.scale(workload, +1, { spec, shape });
    } catch (e) {
      book.forget(spec.id);
      throw e;
    }
    this.adoptFor(workload);
    await this.until(() => book.pod(spec.id) !== undefined, 5000);
    return book.status(spec.id);
  }

  async stop(id: string, drainMs: number): Promise<void> {
    const { book, client } = this.d;
    const w = book.wanted.get(id);
    if (!w) throw new NotFoundError("Replica", { message: `No Kubernetes replica ${id}` });
    w.stopping = { drainMs };
    const pod = book.pod(id);
    if (pod && !pod.metadata?.deletionTimestamp) {
      await client.mergePatch(podRef(pod), { metadata: { annotations: { [DELETION_COST]: String(-(2 ** 31)), [KULE.drainMs]: String(drainMs) } } }).catch(ignoreGone);
    }
    if (isLeaderWorkerSet(w.workload)) await client.delete({ apiVersion: LWS.apiVersion, kind: LWS.kind, metadata: { name: w.workload, namespace: this.d.settings.namespace } }).catch(ignoreGone);
    else await this.scale(w.workload, -1);
    if (!pod) return book.forget(id);
    // The ReplicaSet removes pods that are not ready before the cheapest ready one: if it chose another, remove this one too.
    const marked = await this.until(() => !book.pod(id) || !!book.pod(id)!.metadata?.deletionTimestamp, 2000);
    if (!marked) await client.delete(podRef(pod), Math.ceil(drainMs / 1000)).catch(ignoreGone);
    if (!(await book.awaitGone(id, drainMs + 30_000))) book.forget(id);
  }

  /**
   * Binds waiting pods of `workload` to its replicas that have none, pinning each to its replica's
   * node; a LeaderWorkerSet's workers go to their stages' nodes.
   */
  adoptFor(workload: string | undefined): void {
    if (!workload || this.closed) return;
    const { book } = this.d;
    const waiting = book.unboundPods(this.d.pods.cache.values(), workload).filter((p) => p.spec?.schedulingGates?.some((g) => g.name === KULE.gate) && !this.adoptingPods.has(keyOf(p)));
    const replicas = book.podless(workload).filter((w) => !this.adoptingReplicas.has(w.id));
    const leaders = waiting.filter((p) => workerIndex(p) === 0);
    for (let i = 0; i < Math.min(replicas.length, leaders.length); i++) {
      const w = replicas[i]!;
      this.adoptingReplicas.add(w.id);
      this.bind(leaders[i]!, w.host, { [KULE.replica]: w.id, [KULE.device]: JSON.stringify(w.device) }, () => this.adoptingReplicas.delete(w.id));
    }
    const group = [...book.wanted.values()].find((w) => w.workload === workload && !w.stopping);
    if (group?.device.kind !== "group" || !isLeaderWorkerSet(workload)) return;
    let stageHosts: string[];
    try {
      stageHosts = groupStageHosts(group.device, () => this.d.nodes(), this.d.reading());
    } catch (e) {
      // A stage's node left the topology: its worker waits behind the gate, and the leader's engine reports the group down.
      return this.d.onError(e);
    }
    for (const pod of waiting.filter((p) => workerIndex(p) > 0)) {
      const host = stageHosts[workerIndex(pod)];
      if (host) this.bind(pod, host, { [KULE.workerOf]: group.id }, () => {});
    }
  }

  /**
   * One atomic step, valid only while Kule's gate is still where it was: lifting the gate is the
   * claim, so of two Kule processes adopting one pod only the first succeeds (422 for the other).
   */
  private bind(pod: PodObj, host: string, annotations: Record<string, string>, done: () => void): void {
    this.adoptingPods.add(keyOf(pod));
    const gate = (pod.spec?.schedulingGates ?? []).findIndex((g) => g.name === KULE.gate);
    const esc = (k: string) => k.replace(/~/g, "~0").replace(/\//g, "~1");
    const workload = pod.metadata?.labels?.[KULE.workload];
    this.d.client
      .jsonPatch<PodObj>(podRef(pod), [
        { op: "test", path: `/spec/schedulingGates/${gate}/name`, value: KULE.gate },
        { op: "remove", path: `/spec/schedulingGates/${gate}` },
        { op: "add", path: `/spec/nodeSelector/${esc(GPU.hostname)}`, value: host },
        ...Object.entries(annotations).map(([k, v]) => ({ op: "add" as const, path: `/metadata/annotations/${esc(k)}`, value: v })),
      ])
      .then(
        (bound) => {
          this.d.book.onPod("MODIFIED", bound);
          return true;
        },
        // Gone, or taken by another Kule process: try the next pod. Anything else (the API server
        // away) waits for the next pod event or the reconnect, rather than retrying at once.
        (e: unknown) => isErrorKind(e, "not_found") || isErrorKind(e, "conflict") || isErrorKind(e, "invalid") || (this.d.onError(e), false),
      )
      .then((again) => {
        this.adoptingPods.delete(keyOf(pod));
        done();
        if (again && !this.closed) this.adoptFor(workload);
      });
  }

  private options() {
    return { namespace: this.d.settings.namespace, poolLabel: this.d.settings.poolLabel, port: SERVING_PORT };
  }

  private manifest(c: { spec: ReplicaSpec; shape: Shape }, replicas: number) {
    return this.isvc ? inferenceServiceManifest(c.spec, c.shape, replicas, this.options()) : deploymentManifest(c.spec, c.shape, replicas, this.options());
  }

  /** The watch has caught up with the workload: its cache is the truth again. */
  observed(name: string | undefined): void {
    if (name) this.recent.delete(name);
  }

  private replicasOf(obj: DeploymentObj & { spec?: { predictor?: { minReplicas?: number } } }): number {
    return (this.isvc ? obj.spec?.predictor?.minReplicas : obj.spec?.replicas) ?? 0;
  }

  /** Changes a workload's replica count by `delta`, creating it (and its Service) with `create` when missing. */
  private async scale(name: string, delta: number, create?: { spec: ReplicaSpec; shape: Shape }): Promise<void> {
    const { client, settings } = this.d;
    const ns = settings.namespace;
    const ref = this.isvc ? { apiVersion: "serving.kserve.io/v1beta1", kind: "InferenceService", metadata: { name, namespace: ns } } : { apiVersion: "apps/v1", kind: "Deployment", metadata: { name, namespace: ns } };
    let obj: DeploymentObj | undefined = this.recent.get(name) ?? this.d.workloads.get(ns, name);
    for (let attempt = 0; ; attempt++) {
      if (!obj && attempt > 0) obj = await client.read<DeploymentObj>(ref).catch((e: unknown) => (isErrorKind(e, "not_found") ? undefined : Promise.reject(e)));
      try {
        if (!obj) {
          if (!create || delta <= 0) return;
          // A create, not an apply: should another Kule have created it meanwhile, 409 sends this one to count on top of it.
          this.recent.set(name, await client.create(this.manifest(create, delta)));
          if (!this.isvc) await client.apply(serviceManifest(create.spec, create.shape, this.options()));
          return;
        }
        if (create) {
          // What Kule wants the pods to be changed (a new Kule, new settings): server-side apply of all
          // but the count brings the workload up to date, idempotently, and rolls its pods over.
          const manifest = this.manifest(create, 0);
          if (obj.metadata?.annotations?.[KULE.templateHash] !== manifest.metadata.annotations[KULE.templateHash]) obj = await client.apply(withoutCount(manifest));
        }
        // A compare-and-swap on the count alone (status writes in between do not matter): 422 if another Kule changed it.
        const now = this.replicasOf(obj!);
        const next = Math.max(0, now + delta);
        const path = this.isvc ? "/spec/predictor/minReplicas" : "/spec/replicas";
        const ops: JsonPatchOp[] = [{ op: "test", path, value: now }, { op: "replace", path, value: next }];
        if (this.isvc) ops.push({ op: "replace", path: "/spec/predictor/maxReplicas", value: Math.max(1, next) });
        this.recent.set(name, await client.jsonPatch<DeploymentObj>(ref, ops));
        return;
      } catch (e) {
        if (!(isErrorKind(e, "conflict") || isErrorKind(e, "invalid")) || attempt >= 5) throw e;
        obj = undefined;
        this.recent.delete(name);
      }
    }
  }

  private async until(done: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 10));
    }
    return true;
  }
}

const ignoreGone = (e: unknown) => {
  if (!isErrorKind(e, "not_found")) throw e;
};
