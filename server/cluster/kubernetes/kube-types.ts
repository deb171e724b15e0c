/**
 * The parts of Kubernetes objects the driver reads, as JSON. Objects come from watches (plain
 * JSON) and from client-node's lists (deserialized, timestamps as Date), so timestamps are read
 * through `time()` whichever form they have.
 */
export interface Meta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string | Date;
  deletionTimestamp?: string | Date;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: { kind: string; name: string; controller?: boolean }[];
}

export interface KubeObj {
  apiVersion?: string;
  kind?: string;
  metadata?: Meta;
}

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string | Date;
}

export interface NodeObj extends KubeObj {
  spec?: { unschedulable?: boolean };
  status?: { conditions?: Condition[]; capacity?: Record<string, string>; allocatable?: Record<string, string>; nodeInfo?: { architecture?: string } };
}

export type ContainerState = {
  running?: { startedAt?: string | Date };
  waiting?: { reason?: string; message?: string };
  terminated?: { exitCode: number; reason?: string; message?: string };
};

export interface ContainerStatus {
  name: string;
  image?: string;
  ready: boolean;
  restartCount: number;
  state?: ContainerState;
  lastState?: ContainerState;
}

export interface PodObj extends KubeObj {
  spec?: {
    nodeName?: string;
    nodeSelector?: Record<string, string>;
    schedulingGates?: { name: string }[];
    containers?: { name: string; image?: string; args?: string[]; ports?: { containerPort: number }[] }[];
  };
  status?: { phase?: string; podIP?: string; conditions?: Condition[]; containerStatuses?: ContainerStatus[] };
}

export interface DeploymentObj extends KubeObj {
  spec?: { replicas?: number };
}

export interface EventObj extends KubeObj {
  reason?: string;
  message?: string;
  lastTimestamp?: string | Date;
}

export interface ConfigMapObj extends KubeObj {
  data?: Record<string, string>;
}

export const time = (t: string | Date | undefined): number | null => (t === undefined ? null : new Date(t).getTime());

/** Labels and annotations Kule puts on what it creates. */
export const KULE = {
  managedBy: "app.kubernetes.io/managed-by",
  workload: "kule.io/workload",
  endpoint: "kule.io/endpoint",
  versionId: "kule.io/version-id",
  /** On a pod: the Kule replica it serves, and the device Kule placed it on. */
  replica: "kule.io/replica",
  device: "kule.io/device",
  /** On a pod Kule stops: how long in-flight requests may take to finish. */
  drainMs: "kule.io/drain-ms",
  /** The scheduling gate Kule's pods are created with: lifted once Kule has placed the pod. */
  gate: "kule.io/placement",
  /** On a workload: the hash of the pod template Kule last applied (workload.ts). */
  templateHash: "kule.io/template-hash",
  /** On a node: when Kule asked its MIG manager for the layout in `nvidia.com/mig.config`. */
  migRequestedAt: "kule.io/mig-config-requested-at",
  /** On a node (an annotation, as it is free text): its CPU model, which Node objects do not otherwise carry. */
  cpuModel: "kule.io/cpu-model",
  /**
   * On a node, set by its operator where GPU feature discovery cannot tell: each GPU's NVLink
   * domain in index order, dot-separated ("0.0.1.1": two bridged pairs), "-" for none.
   */
  nvlinkDomains: "kule.io/nvlink-domains",
  /** On a worker pod of a multi-node group: the replica whose leader it serves. */
  workerOf: "kule.io/worker-of",
  /** On a pod template: the model it serves. */
  model: {
    servedName: "kule.io/served-model-name",
    endpoint: "kule.io/endpoint-slug",
    version: "kule.io/version",
    task: "kule.io/task",
    weightBytes: "kule.io/weight-bytes",
    parameters: "kule.io/parameter-count",
  },
} as const;

export const GPU = {
  product: "nvidia.com/gpu.product",
  count: "nvidia.com/gpu.count",
  memory: "nvidia.com/gpu.memory",
  migCapable: "nvidia.com/mig.capable",
  migStrategy: "nvidia.com/mig.strategy",
  migConfig: "nvidia.com/mig.config",
  migState: "nvidia.com/mig.config.state",
  resource: "nvidia.com/gpu",
  region: "topology.kubernetes.io/region",
  hostname: "kubernetes.io/hostname",
} as const;

/** What the LeaderWorkerSet controller labels its pods with (leaderworkerset.x-k8s.io/v1). */
export const LWS = {
  apiVersion: "leaderworkerset.x-k8s.io/v1",
  kind: "LeaderWorkerSet",
  name: "leaderworkerset.sigs.k8s.io/name",
  groupIndex: "leaderworkerset.sigs.k8s.io/group-index",
  /** 0 on the leader, 1… on the workers. */
  workerIndex: "leaderworkerset.sigs.k8s.io/worker-index",
  groupKey: "leaderworkerset.sigs.k8s.io/group-key",
} as const;

export const DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";
