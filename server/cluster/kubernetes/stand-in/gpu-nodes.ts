import { SERVER_VERSION } from "./discovery.ts";
import type { KubeObject } from "./kube-object.ts";

export interface GpuNodeSpec {
  name: string;
  /** GPU feature discovery's product name, e.g. `NVIDIA-H100-80GB-HBM3`. */
  product?: string;
  gpuCount?: number;
  /** Memory per GPU in MiB, as `nvidia.com/gpu.memory` carries it. */
  gpuMemoryMiB?: number;
  region?: string;
  zone?: string;
  pool?: string;
  /** Defaults to whether the product supports MIG (A100, A30, H100, H200, B200). */
  migCapable?: boolean;
  migStrategy?: "single" | "mixed";
  /** MIG instances already advertised, per profile (mixed strategy), e.g. `{ "3g.40gb": 2 }`. */
  migInstances?: Record<string, number>;
  /** GPUs advertised whole; defaults to gpuCount when no MIG instances are given, else 0. */
  wholeGpus?: number;
  /** A preset `nvidia.com/mig.config` label, which the MIG manager applies on sight. */
  migConfig?: string;
  cpu?: string;
  memory?: string;
  ready?: boolean;
  unschedulable?: boolean;
  taints?: { key: string; value?: string; effect: "NoSchedule" | "PreferNoSchedule" | "NoExecute" }[];
  labels?: Record<string, string>;
}

/** The label that names a node's pool in Kule's clusters. */
export const POOL_LABEL = "kule.io/node-pool";

/**
 * A Node as it looks once the kubelet registered it and the GPU Operator labelled it: GPU feature
 * discovery's `nvidia.com/*` labels, the device plugin's allocatable GPUs or MIG instances, the
 * topology labels, and a Ready condition.
 */
export function gpuNode(spec: GpuNodeSpec): KubeObject {
  const product = spec.product ?? "NVIDIA-H100-80GB-HBM3";
  const gpuCount = spec.gpuCount ?? 8;
  const migCapable = spec.migCapable ?? /A100|A30|H100|H200|B200/.test(product);
  const instances = spec.migInstances ?? {};
  const whole = spec.wholeGpus ?? (Object.keys(instances).length ? 0 : gpuCount);
  const resources: Record<string, string> = {
    cpu: spec.cpu ?? "64",
    memory: spec.memory ?? "512Gi",
    pods: "110",
    "ephemeral-storage": "1Ti",
    "nvidia.com/gpu": String(whole),
    ...Object.fromEntries(Object.entries(instances).map(([p, n]) => [`nvidia.com/mig-${p}`, String(n)])),
  };
  const region = spec.region ?? "eu-central-1";
  const ready = spec.ready ?? true;
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name: spec.name,
      labels: {
        "kubernetes.io/hostname": spec.name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "topology.kubernetes.io/region": region,
        "topology.kubernetes.io/zone": spec.zone ?? `${region}a`,
        ...(spec.pool ? { [POOL_LABEL]: spec.pool } : {}),
        "nvidia.com/gpu.present": "true",
        "nvidia.com/gpu.product": product,
        "nvidia.com/gpu.count": String(gpuCount),
        "nvidia.com/gpu.memory": String(spec.gpuMemoryMiB ?? 81559),
        "nvidia.com/mig.capable": String(migCapable),
        ...(migCapable ? { "nvidia.com/mig.strategy": spec.migStrategy ?? "mixed", "nvidia.com/gpu.deploy.mig-manager": "true" } : {}),
        "nvidia.com/gpu.deploy.device-plugin": "true",
        "nvidia.com/gpu.deploy.dcgm-exporter": "true",
        "nvidia.com/gpu.deploy.gpu-feature-discovery": "true",
        ...Object.fromEntries(Object.entries(instances).map(([p, n]) => [`nvidia.com/mig-${p}.count`, String(n)])),
        ...(spec.migConfig ? { "nvidia.com/mig.config": spec.migConfig } : {}),
        ...spec.labels,
      },
    },
    spec: {
      ...(spec.unschedulable ? { unschedulable: true } : {}),
      ...(spec.taints?.length ? { taints: spec.taints } : {}),
    },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [
        ...["MemoryPressure", "DiskPressure", "PIDPressure"].map((type) => ({ type, status: "False", reason: `KubeletHasNo${type.replace("Pressure", "")}Pressure`, message: "kubelet has no pressure", lastHeartbeatTime: new Date().toISOString(), lastTransitionTime: new Date().toISOString() })),
        {
          type: "Ready",
          status: ready ? "True" : "False",
          reason: ready ? "KubeletReady" : "KubeletNotReady",
          message: ready ? "kubelet is posting ready status" : "container runtime network not ready",
          lastHeartbeatTime: new Date().toISOString(),
          lastTransitionTime: new Date().toISOString(),
        },
      ],
      addresses: [
        { type: "InternalIP", address: `192.168.${[...spec.name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 250, 7)}.10` },
        { type: "Hostname", address: spec.name },
      ],
      nodeInfo: {
        machineID: "", systemUUID: "", bootID: "", kernelVersion: "6.8.0-45-generic", osImage: "Ubuntu 24.04.1 LTS", containerRuntimeVersion: "containerd://1.7.22",
        kubeletVersion: SERVER_VERSION.gitVersion, kubeProxyVersion: "", operatingSystem: "linux", architecture: "amd64",
      },
    },
  };
}
