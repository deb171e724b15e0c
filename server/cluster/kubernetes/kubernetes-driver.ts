import type { KubeConfig } from "@kubernetes/client-node";
import type { ClusterDriver, ClusterEvent, MigProgress, ReplicaSpec, ReplicaStatus, Topology } from "../driver.ts";
import type { MigInstanceSpec } from "../mig.ts";
import { NotFoundError, UnavailableError } from "../../errors.ts";
import { gpuUuid } from "../gpu-uuid.ts";
import { KubeClient } from "./kube-client.ts";
import { GPU, KULE, type ConfigMapObj, type DeploymentObj, type EventObj, type NodeObj, type PodObj } from "./kube-types.ts";
import { Reflector } from "./reflector.ts";
import { ReplicaBook } from "./replica-book.ts";
import { migProgress, nodeStatus, topologyNode, topologyOf, type NodeReading } from "./node-topology.ts";
import { parseMigParted, type MigDeviceGroup } from "./mig-plan.ts";
import { requestMigLayout } from "./mig-writer.ts";
import { ReplicaWorkloads } from "./replica-workloads.ts";
import { SERVING_PORT } from "./workload.ts";
import { STAND_IN_CLUSTER, type KubernetesSettings } from "./settings.ts";

/**
 * Drives a Kubernetes cluster with NVIDIA's GPU Operator through its API server:
 * - discovery from Node objects (pools by a node label, regions by `topology.kubernetes.io/region`,
 *   GPUs and MIG instances from GPU feature discovery's labels and the device plugin's resources);
 * - replicas as pods of a Deployment (or KServe InferenceService) per endpoint version, in a
 *   namespace Kule owns (replica-workloads.ts); a pipeline across nodes as a LeaderWorkerSet of
 *   its own per replica (leader-worker-set.ts); the gateway calls each ready (leader) pod;
 * - MIG through the operator's MIG manager (mig-writer.ts); cordon through `spec.unschedulable`;
 * - everything it reports comes from LIST + WATCH of Nodes, Pods, workloads and the mig-parted
 *   ConfigMap (reflector.ts): no polling.
 */
export class KubernetesDriver implements ClusterDriver {
  readonly kind = "kubernetes" as const;
  readonly capabilities = { startStop: true, mig: true, cordon: true, faults: false };
  readonly client: KubeClient;
  readonly clusterName: string;
  /** Whether the API server is Kule's stand-in (the demo), for the UI to say so. */
  readonly standIn: boolean;
  private readonly book = new ReplicaBook(SERVING_PORT, (host) => {
    const n = this.nodes.get(undefined, host);
    const ready = n?.status?.conditions?.find((c) => c.type === "Ready");
    return !n || ready?.status === "True" ? null : `${ready?.reason ?? "no Ready condition"}${ready?.message ? `: ${ready.message}` : ""}`;
  });
  readonly nodes: Reflector<NodeObj>;
  readonly pods: Reflector<PodObj>;
  readonly workloadObjects: Reflector<DeploymentObj>;
  readonly migConfigMaps: Reflector<ConfigMapObj>;
  private readonly workloads: ReplicaWorkloads;
  private readonly migFailures = new Map<string, string>();
  private readonly connectListeners = new Set<() => void>();
  private started = false;
  private reconnectTimer: NodeJS.Timeout | null = null;

  constructor(kc: KubeConfig, readonly settings: KubernetesSettings) {
    this.client = new KubeClient(kc);
    const contextCluster = kc.getCurrentCluster()?.name ?? "kubernetes";
    this.clusterName = settings.clusterName ?? kc.getCurrentContext() ?? contextCluster;
    this.standIn = contextCluster === STAND_IN_CLUSTER;
    const ns = settings.namespace;
    const managed = `${KULE.managedBy}=kule`;
    const reconnect = () => this.reconnected();
    this.nodes = new Reflector<NodeObj>({ client: this.client, apiVersion: "v1", kind: "Node", path: "/api/v1/nodes", onChange: (t, n, prev) => this.onNode(t, n, prev), onReconnect: reconnect });
    this.pods = new Reflector<PodObj>({ client: this.client, apiVersion: "v1", kind: "Pod", path: `/api/v1/namespaces/${ns}/pods`, namespace: ns, labelSelector: managed, onChange: (t, p) => this.onPod(t, p), onReconnect: reconnect });
    const isvc = settings.workload === "inferenceservice";
    this.workloadObjects = new Reflector<DeploymentObj>({
      client: this.client,
      apiVersion: isvc ? "serving.kserve.io/v1beta1" : "apps/v1",
      kind: isvc ? "InferenceService" : "Deployment",
      path: isvc ? `/apis/serving.kserve.io/v1beta1/namespaces/${ns}/inferenceservices` : `/apis/apps/v1/namespaces/${ns}/deployments`,
      namespace: ns,
      labelSelector: managed,
      onChange: (_t, w) => this.workloads.observed(w.metadata?.name),
      onReconnect: reconnect,
    });
    const cm = settings.migConfigMap;
    this.migConfigMaps = new Reflector<ConfigMapObj>({
      client: this.client,
      apiVersion: "v1",
      kind: "ConfigMap",
      path: `/api/v1/namespaces/${cm.namespace}/configmaps`,
      namespace: cm.namespace,
      fieldSelector: `metadata.name=${cm.name}`,
      onChange: () => this.book.emit({ type: "topology", at: Date.now() }),
      onReconnect: reconnect,
    });
    this.workloads = new ReplicaWorkloads({
      client: this.client,
      settings,
      book: this.book,
      pods: this.pods,
      workloads: this.workloadObjects,
      node: (n) => this.nodes.get(undefined, n),
      nodes: () => this.nodes.cache.values(),
      reading: () => this.reading(),
      onError: (e) => console.error("[kubernetes-driver]", e instanceof Error ? e.message : e),
    });
  }

  /** Whether the API server answers: every watch is connected and has listed. */
  get reachable(): boolean {
    return this.started && this.reflectors.every((r) => !r.broken && r.resourceVersion !== "");
  }

  get reflectors() {
    return [this.nodes, this.pods, this.workloadObjects, this.migConfigMaps];
  }

  /** Starts the LIST + WATCH loops (once); resolves when all four have listed, or says the API server does not answer. */
  async ready(timeoutMs = 15_000): Promise<void> {
    if (!this.started) {
      this.started = true;
      for (const r of this.reflectors) r.start();
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new UnavailableError(`The Kubernetes API server at ${this.client.server} does not answer: Kule has not been able to list the cluster.`)), timeoutMs);
    });
    try {
      await Promise.race([Promise.all(this.reflectors.map((r) => r.synced)), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.workloads.closed = true;
    for (const r of this.reflectors) r.stop();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
  }

  private reading(): NodeReading {
    const cm = this.migConfigMaps.get(this.settings.migConfigMap.namespace, this.settings.migConfigMap.name);
    let configs = new Map<string, MigDeviceGroup[]>();
    const text = cm?.data?.[this.settings.migConfigMap.key];
    if (text) {
      try {
        configs = new Map(Object.entries(parseMigParted(text)["mig-configs"]));
      } catch {
        // A ConfigMap someone broke: layouts are then inferred from the advertised resources.
      }
    }
    return { poolLabel: this.settings.poolLabel, migConfigs: configs, migFailure: (n) => this.migFailures.get(n) ?? null };
  }

  /** One reconcile after the API server is back, once every reflector has relisted. */
  private reconnected(): void {
    if (this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.reflectors.some((r) => r.broken)) return;
      // Claims that failed while the server was away are tried again.
      for (const w of new Set([...this.book.wanted.values()].map((x) => x.workload))) this.workloads.adoptFor(w);
      for (const l of this.connectListeners) l();
    }, 100);
  }

  private onPod(type: "ADDED" | "MODIFIED" | "DELETED", pod: PodObj): void {
    this.book.onPod(type, pod);
    if (type !== "DELETED") this.workloads.adoptFor(pod.metadata?.labels?.[KULE.workload]);
  }

  private onNode(type: "ADDED" | "MODIFIED" | "DELETED", node: NodeObj, prev: NodeObj | undefined): void {
    const at = Date.now();
    const name = node.metadata!.name!;
    if (type !== "MODIFIED" || !prev) return this.book.emit({ type: "topology", at });
    const labels = node.metadata?.labels ?? {};
    const before = prev.metadata?.labels ?? {};
    const state = labels[GPU.migState];
    if (state === "failed" && before[GPU.migState] !== "failed") return void this.explainMigFailure(name);
    const nodeEvent = (): ClusterEvent => ({ type: "node", hostname: name, status: nodeStatus(node), cordoned: node.spec?.unschedulable === true, mig: migProgress(node, this.reading()), at });
    if (nodeStatus(node) !== nodeStatus(prev) || (node.spec?.unschedulable === true) !== (prev.spec?.unschedulable === true) || labels[GPU.migConfig] !== before[GPU.migConfig] || state !== before[GPU.migState]) {
      this.book.emit(nodeEvent());
    }
    if (nodeStatus(node) !== nodeStatus(prev)) this.book.reportNode(name);
    if (state === "success" && (before[GPU.migState] !== "success" || labels[GPU.migConfig] !== before[GPU.migConfig])) {
      for (const g of topologyNode(node, this.reading()).gpus) this.book.emit({ type: "mig", hostname: name, gpuUuid: g.uuid, layout: g.migInstances.map(({ profile, startSlot }) => ({ profile, startSlot })), at });
    }
    if (JSON.stringify(node.status?.allocatable) !== JSON.stringify(prev.status?.allocatable) || labels[this.settings.poolLabel] !== before[this.settings.poolLabel] || labels[GPU.count] !== before[GPU.count]) {
      this.book.emit({ type: "topology", at });
    }
  }

  /** The MIG manager only logs why it failed; where an event on the node says why, Kule shows it. */
  private async explainMigFailure(node: string): Promise<void> {
    let reason = `the MIG manager on ${node} reports failed; why is in its log (kubectl -n gpu-operator logs the nvidia-mig-manager pod on ${node})`;
    try {
      const { items } = await this.client.list<EventObj>("v1", "Event", { namespace: "default", fieldSelector: `involvedObject.kind=Node,involvedObject.name=${node},reason=MigConfigFailed` });
      const last = items.sort((a, b) => String(a.lastTimestamp).localeCompare(String(b.lastTimestamp))).at(-1);
      if (last?.message) reason = last.message;
    } catch {
      // No events to read: keep the pointer to the log.
    }
    this.migFailures.set(node, reason);
    const n = this.nodes.get(undefined, node);
    if (n) this.book.emit({ type: "node", hostname: node, status: nodeStatus(n), cordoned: n.spec?.unschedulable === true, mig: migProgress(n, this.reading()), at: Date.now() });
  }

  async listTopology(): Promise<Topology> {
    await this.ready();
    return topologyOf(this.clusterName, this.nodes.cache.values(), this.reading());
  }

  async listReplicas(): Promise<ReplicaStatus[]> {
    await this.ready();
    return this.book.list();
  }

  async startReplica(spec: ReplicaSpec): Promise<ReplicaStatus> {
    await this.ready();
    return this.workloads.start(spec);
  }

  awaitReady(id: string, timeoutMs: number): Promise<ReplicaStatus> {
    return this.book.awaitState(id, timeoutMs);
  }

  async stopReplica(id: string, opts: { drainMs?: number } = {}): Promise<void> {
    await this.ready();
    await this.workloads.stop(id, opts.drainMs ?? 0);
  }

  async replicaHealth(id: string): Promise<ReplicaStatus> {
    await this.ready();
    return this.book.status(id);
  }

  /** Asks the node's MIG manager for the layout; the change lands later (see the node and mig events). */
  async applyMigLayout(uuid: string, layout: MigInstanceSpec[]): Promise<MigProgress> {
    await this.ready();
    const found = this.findGpu(uuid);
    return requestMigLayout(
      {
        client: this.client,
        settings: this.settings,
        node: (n) => this.nodes.get(undefined, n),
        topologyNode: (n) => topologyNode(n, this.reading()),
        configMap: () => this.migConfigMaps.get(this.settings.migConfigMap.namespace, this.settings.migConfigMap.name),
        podsOn: (host) => [...this.pods.cache.values()].filter((p) => p.spec?.nodeName === host && !p.metadata?.deletionTimestamp),
      },
      found.host,
      found.index,
      layout,
    );
  }

  private findGpu(uuid: string): { host: string; index: number } {
    for (const n of this.nodes.cache.values()) {
      const count = Number(n.metadata?.labels?.[GPU.count] ?? 0);
      for (let i = 0; i < count; i++) if (gpuUuid(n.metadata!.name!, i) === uuid) return { host: n.metadata!.name!, index: i };
    }
    throw new NotFoundError("GPU", { message: `No GPU ${uuid} on any Kubernetes node` });
  }

  async cordon(hostname: string): Promise<void> {
    await this.client.mergePatch({ apiVersion: "v1", kind: "Node", metadata: { name: hostname } }, { spec: { unschedulable: true } });
  }

  async uncordon(hostname: string): Promise<void> {
    await this.client.mergePatch({ apiVersion: "v1", kind: "Node", metadata: { name: hostname } }, { spec: { unschedulable: null } });
  }

  subscribe(listener: (e: ClusterEvent) => void, onConnect?: () => void): () => void {
    const off = this.book.subscribe(listener);
    if (onConnect) {
      this.connectListeners.add(onConnect);
      this.ready(24 * 3600_000).then(onConnect, () => {});
    }
    return () => {
      off();
      if (onConnect) this.connectListeners.delete(onConnect);
    };
  }
}
