import type { MigInstanceSpec } from "./mig.ts";

/**
 * How Kule drives a cluster. Three drivers implement it: `sim` (the simulator, a process of its
 * own, over its control API), `kubernetes` (a Kubernetes API server with NVIDIA's GPU Operator:
 * server/cluster/kubernetes/) and `external` (servers the user already runs, registered by URL).
 *
 * Every driver reports the cluster's shape the same way: `listTopology()` and the node, MIG and
 * topology events, which the app's discovery (discovery.ts) writes into the database. The
 * cluster owns what it is; Kule learns it.
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
  /**
   * Lays out a GPU's MIG instances. The simulator applies it at once (void); a cluster whose MIG
   * manager applies it later answers where the change stands, and reports the layout by events.
   */
  applyMigLayout(gpuUuid: string, layout: MigInstanceSpec[]): Promise<MigProgress | void>;
  /** Subscribes to cluster events; `onConnect` runs whenever the driver is (again) in sync with the cluster. */
  subscribe(listener: (e: ClusterEvent) => void, onConnect?: () => void): () => void;
  cordon(hostname: string): Promise<void>;
  uncordon(hostname: string): Promise<void>;
}

export interface DriverCapabilities {
  startStop: boolean;
  mig: boolean;
  cordon: boolean;
  faults: boolean;
}

export interface Topology {
  /** The cluster's name, as Kule records it (the simulator's topology name, or the Kubernetes context). */
  cluster: string;
  pools: TopologyPool[];
}

export interface TopologyPool {
  name: string;
  region: string;
  nodes: TopologyNode[];
}

export interface TopologyNode {
  hostname: string;
  region: string;
  status: "ready" | "not_ready" | "down";
  cordoned: boolean;
  cpuModel: string;
  cpuCores: number;
  memoryBytes: number;
  gpus: TopologyGpu[];
  /** The node's last layout change through a MIG manager (Kubernetes); null when none is known. */
  mig?: MigProgress | null;
}

/** Where a MIG change asked of a node's MIG manager stands (`nvidia.com/mig.config.state`). */
export interface MigProgress {
  config: string;
  state: "pending" | "rebooting" | "success" | "failed";
  /** When the change was asked for (epoch ms), when known. */
  since: number | null;
  reason: string | null;
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
  /** GPUs of a node with the same domain are joined by NVLink/NVSwitch; null or absent: PCIe only, or not known. */
  nvlinkDomain?: number | null;
}

/**
 * Where a replica runs: a whole GPU, one MIG instance of it, a group of whole GPUs (tensor
 * parallel on one node, pipeline stages across nodes: `gpuUuids` in rank order, stage by stage),
 * a CPU node, or a server Kule does not run.
 */
export type Device =
  | { kind: "gpu"; gpuUuid: string }
  | { kind: "group"; gpuUuids: string[]; tensorParallel: number; pipelineParallel: number }
  | { kind: "mig"; gpuUuid: string; startSlot: number }
  | { kind: "cpu"; hostname: string }
  | { kind: "external"; url: string; region: string };

export interface ReplicaSpec {
  /** Kule's replica id, also the simulator's. */
  id: string;
  /** The node pool Kule placed it in (Kubernetes: the pool label its pods are bound to). */
  pool?: string;
  /** The serving engine and the weights it loads (Kubernetes: the container image and its arguments). */
  engine?: "vllm" | "tensorrt_llm" | "triton" | "onnxruntime" | "openvino";
  artifactUri?: string;
  /** The name clients put in `model` (the endpoint's slug); the replica also answers to `servedModelName`. */
  endpointSlug: string;
  servedModelName: string;
  versionId: string;
  versionLabel: string;
  task: "llm" | "vision" | "embedding" | "classifier" | "speech";
  weightBytes: number;
  parameterCount: number;
  /** The model card's attention shape, when known: the engine sizes its KV cache by it. */
  attention?: { layers: number; kvHeads: number; headDim: number } | null;
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
  | { type: "node"; hostname: string; status: TopologyNode["status"]; cordoned: boolean; mig?: MigProgress | null; at: number }
  /** The cluster's shape changed (a node joined or left, a pool label moved): discover it again. */
  | { type: "topology"; at: number }
  | { type: "gpu-error"; hostname: string; gpuUuid: string; xid: number; at: number }
  | { type: "mig"; hostname: string; gpuUuid: string; layout: MigInstanceSpec[]; at: number };
