import type { MigInstanceSpec } from "./mig.ts";

/**
 * How Kule drives a cluster. Two drivers implement it today: `sim` (the embedded simulator, a
 * process of its own) and `external` (servers the user already runs, registered by URL).
 *
 * A Kubernetes driver would map it like this:
 * - listTopology: Nodes with `nvidia.com/gpu.*` labels and the GPU Operator's node feature
 *   discovery; node pools from a pool label; MIG instances from `nvidia.com/mig-*` resources.
 * - startReplica: a Deployment with one replica (or a KServe InferenceService with
 *   `minReplicas: 1`) pinned by nodeSelector/affinity to the node, requesting `nvidia.com/gpu: 1`
 *   or `nvidia.com/mig-3g.40gb: 1`; its Service URL is the upstream; readiness from the pod's
 *   readiness probe (vLLM `/health`, Triton `/v2/health/ready`).
 * - stopReplica with drain: scale to zero after setting the pod's terminationGracePeriodSeconds
 *   to the drain timeout, so in-flight streams finish.
 * - applyMigLayout: set the node label `nvidia.com/mig.config=<layout name>` (from the
 *   mig-manager's mig-configs ConfigMap) after cordoning and draining the node, then watch
 *   `nvidia.com/mig.config.state` go pending → rebooting → success | failed.
 * - cordon/uncordon: the Node's `spec.unschedulable`.
 * - events: a watch on Pods (Ready condition, OOMKilled / CrashLoopBackOff reasons), Nodes
 *   (NotReady) and dcgm-exporter's XID errors.
 * - ReplicaStatus.metricsUrl: the pod IP with vLLM's API port (`/metrics`) or Triton's metrics
 *   port (8002); maxNumSeqs: the `--max-num-seqs` put in the pod's args. Kule's discovery
 *   (server/metrics/prometheus/discovery.ts) publishes them as scrape targets with its labels.
 */
export interface ClusterDriver {
  readonly kind: "sim" | "external" | "kubernetes";
  /** What this driver can do; the UI hides (and explains) what it cannot. */
  readonly capabilities: DriverCapabilities;
  listTopology(): Promise<Topology>;
  listReplicas(): Promise<ReplicaStatus[]>;
  startReplica(spec: ReplicaSpec): Promise<ReplicaStatus>;
  /** Waits until the replica is ready, or rejects with the engine's reason when it fails. */
  awaitReady(replicaId: string, timeoutMs: number): Promise<ReplicaStatus>;
  /** With `drainMs`, the replica takes no new requests and stops once in-flight ones finish (or the time runs out). */
  stopReplica(replicaId: string, opts?: { drainMs?: number }): Promise<void>;
  replicaHealth(replicaId: string): Promise<ReplicaStatus>;
  applyMigLayout(gpuUuid: string, layout: MigInstanceSpec[]): Promise<void>;
  cordon(hostname: string): Promise<void>;
  uncordon(hostname: string): Promise<void>;
  /** Subscribes to cluster events; returns the function that unsubscribes. */
  subscribe(listener: (e: ClusterEvent) => void): () => void;
}

export interface DriverCapabilities {
  startStop: boolean;
  mig: boolean;
  cordon: boolean;
  faults: boolean;
}

export interface Topology {
  pools: { name: string; region: string; nodes: TopologyNode[] }[];
}

export interface TopologyNode {
  hostname: string;
  region: string;
  status: "ready" | "not_ready" | "down";
  cordoned: boolean;
  gpus: TopologyGpu[];
}

export interface TopologyGpu {
  index: number;
  uuid: string;
  modelName: string;
  memoryBytes: number;
  migEnabled: boolean;
  migInstances: (MigInstanceSpec & { memoryBytes: number })[];
  /** Last XID error code, 0 when none. */
  xid: number;
}

/** Where a replica runs: a whole GPU, one MIG instance of it, a CPU node, or a server Kule does not run. */
export type Device =
  | { kind: "gpu"; gpuUuid: string }
  | { kind: "mig"; gpuUuid: string; startSlot: number }
  | { kind: "cpu"; hostname: string }
  | { kind: "external"; url: string; region: string };

export interface ReplicaSpec {
  /** Kule's replica id, also the simulator's. */
  id: string;
  /** The name clients put in `model` (the endpoint's slug); the replica also answers to `servedModelName`. */
  endpointSlug: string;
  servedModelName: string;
  versionId: string;
  versionLabel: string;
  task: "llm" | "vision" | "embedding" | "classifier" | "speech";
  weightBytes: number;
  parameterCount: number;
  device: Device;
}

export type ReplicaState = "pending" | "loading" | "ready" | "draining" | "stopped" | "failed";

export interface ReplicaStatus {
  id: string;
  state: ReplicaState;
  /** The engine's words when it failed (e.g. the out-of-memory message). */
  reason: string | null;
  /** Base URL of its OpenAI / KServe API, e.g. http://127.0.0.1:41234 */
  url: string | null;
  /**
   * Where its engine publishes Prometheus metrics (vLLM: `<url>/metrics`; Triton: its metrics
   * port, 8002 by default), when the driver knows; Kule's service discovery publishes it.
   */
  metricsUrl?: string | null;
  /** The engine's maximum batch (vLLM's --max-num-seqs) when the driver chose it; vLLM does not export it. */
  maxNumSeqs?: number | null;
  device: Device;
  hostname: string | null;
  region: string | null;
  /** When loading: when it is expected to be ready (epoch ms). */
  expectedReadyAt: number | null;
  inFlight: number;
}

export type ClusterEvent =
  | { type: "replica"; replica: ReplicaStatus; at: number }
  | { type: "node"; hostname: string; status: TopologyNode["status"]; cordoned: boolean; at: number }
  | { type: "gpu-error"; hostname: string; gpuUuid: string; xid: number; at: number }
  | { type: "mig"; hostname: string; gpuUuid: string; layout: MigInstanceSpec[]; at: number };
