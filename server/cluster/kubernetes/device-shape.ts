import type { Device } from "../driver.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../../errors.ts";
import type { NodeObj } from "./kube-types.ts";
import { topologyNode, type NodeReading } from "./node-topology.ts";
import type { Shape } from "./workload.ts";

/** Where a replica's pods go: the node of its (first) pod, every pod's node in stage order, and what each asks for. */
export interface PodPlacement {
  host: string;
  /** One node per pod: the leader's first, then each worker's (one entry unless the shape is a LeaderWorkerSet). */
  stageHosts: string[];
  shape: Shape;
}

type GpuAt = { host: string; index: number; migEnabled: boolean; migInstances: { startSlot: number; profile: string }[] };

function gpuAt(uuid: string, nodes: Iterable<NodeObj>, reading: NodeReading): GpuAt {
  for (const n of nodes) {
    const topo = topologyNode(n, reading);
    const gpu = topo.gpus.find((g) => g.uuid === uuid);
    if (gpu) return { host: topo.hostname, index: gpu.index, migEnabled: gpu.migEnabled, migInstances: gpu.migInstances };
  }
  throw new NotFoundError("GPU", { message: `No GPU ${uuid} on any Kubernetes node` });
}

/**
 * The Kubernetes shape of a device Kule placed: a GPU or MIG instance is one pod asking for it;
 * a tensor-parallel group on one node is one pod asking for all its GPUs (the NVIDIA device
 * plugin's preferred allocation then picks NVLink-joined ones); a pipeline across nodes is a
 * LeaderWorkerSet with one pod per stage, each asking for its stage's GPUs.
 */
export function podPlacement(device: Device, nodes: () => Iterable<NodeObj>, reading: NodeReading, engine: string): PodPlacement {
  if (device.kind === "external") throw new InvalidInputError("device", "The Kubernetes driver runs replicas on its nodes; register external servers with the external driver");
  if (device.kind === "cpu") return { host: device.hostname, stageHosts: [device.hostname], shape: { kind: "cpu" } };
  if (device.kind === "group") return groupPlacement(device, nodes, reading, engine);
  const gpu = gpuAt(device.gpuUuid, nodes(), reading);
  if (device.kind === "gpu") {
    if (gpu.migEnabled) throw new ConflictError(`GPU ${gpu.index} of ${gpu.host} is in MIG mode: place the replica on one of its instances`);
    return { host: gpu.host, stageHosts: [gpu.host], shape: { kind: "gpu" } };
  }
  const inst = gpu.migInstances.find((m) => m.startSlot === device.startSlot);
  if (!inst) throw new NotFoundError("MIG instance", { message: `GPU ${gpu.index} of ${gpu.host} has no MIG instance at slot ${device.startSlot}` });
  return { host: gpu.host, stageHosts: [gpu.host], shape: { kind: "mig", profile: inst.profile } };
}

/** Each stage's node, in stage order, for a group whose GPUs are all on known nodes (refused where a stage spans nodes). */
export function groupStageHosts(device: Extract<Device, { kind: "group" }>, nodes: () => Iterable<NodeObj>, reading: NodeReading): string[] {
  const { tensorParallel: tp, pipelineParallel: pp } = device;
  if (device.gpuUuids.length !== tp * pp) throw new InvalidInputError("device", `A TP ${tp} × PP ${pp} group holds ${tp * pp} GPUs; ${device.gpuUuids.length} were named`);
  const gpus = device.gpuUuids.map((u) => gpuAt(u, nodes(), reading));
  const mig = gpus.find((g) => g.migEnabled);
  if (mig) throw new ConflictError(`GPU ${mig.index} of ${mig.host} is in MIG mode: NCCL cannot join a MIG instance to a group`);
  return Array.from({ length: pp }, (_, s) => {
    const stage = gpus.slice(s * tp, (s + 1) * tp);
    if (stage.some((g) => g.host !== stage[0]!.host)) throw new InvalidInputError("device", `Stage ${s + 1} of the group spans ${[...new Set(stage.map((g) => g.host))].join(" and ")}: tensor parallelism stays within one node`);
    return stage[0]!.host;
  });
}

function groupPlacement(device: Extract<Device, { kind: "group" }>, nodes: () => Iterable<NodeObj>, reading: NodeReading, engine: string): PodPlacement {
  const { tensorParallel: tp, pipelineParallel: pp } = device;
  const stageHosts = groupStageHosts(device, nodes, reading);
  if (pp === 1) return { host: stageHosts[0]!, stageHosts, shape: { kind: "gpus", count: tp } };
  if (engine !== "vllm") throw new InvalidInputError("device", `Pipelines across nodes run on vLLM (over Ray in a LeaderWorkerSet); this version's engine is ${engine}`);
  return { host: stageHosts[0]!, stageHosts, shape: { kind: "lws", nodes: pp, gpusPerNode: tp } };
}
