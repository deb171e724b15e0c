import { ConflictError, InvalidInputError, NotFoundError } from "../../errors.ts";
import { migInstanceMemoryBytes, type MigInstanceSpec } from "../mig.ts";
import type { ReplicaSpec, Topology, TopologyGpu, TopologyNode } from "../driver.ts";

export interface SimGpu {
  index: number;
  uuid: string;
  modelName: string;
  memoryBytes: number;
  migEnabled: boolean;
  mig: MigInstanceSpec[];
  xid: number;
  nvlinkDomain: number | null;
}

export interface SimNode {
  pool: string;
  hostname: string;
  region: string;
  status: TopologyNode["status"];
  cordoned: boolean;
  cpuModel: string;
  cpuCores: number;
  memoryBytes: number;
  gpus: SimGpu[];
}

/** The simulated hardware: nodes, their GPUs and MIG layouts, looked up by hostname or GPU UUID. */
export class SimInventory {
  readonly nodes = new Map<string, SimNode>();
  readonly gpus = new Map<string, { node: SimNode; gpu: SimGpu }>();
  readonly cluster: string;

  constructor(topology: Topology) {
    this.cluster = topology.cluster;
    for (const pool of topology.pools) {
      for (const n of pool.nodes) {
        const node: SimNode = { pool: pool.name, hostname: n.hostname, region: n.region, status: n.status, cordoned: n.cordoned, cpuModel: n.cpuModel, cpuCores: n.cpuCores, memoryBytes: n.memoryBytes, gpus: [] };
        for (const g of n.gpus) {
          const gpu: SimGpu = { index: g.index, uuid: g.uuid, modelName: g.modelName, memoryBytes: g.memoryBytes, migEnabled: g.migEnabled, mig: g.migInstances.map((m) => ({ profile: m.profile, startSlot: m.startSlot })), xid: 0, nvlinkDomain: g.nvlinkDomain ?? null };
          node.gpus.push(gpu);
          this.gpus.set(gpu.uuid, { node, gpu });
        }
        this.nodes.set(node.hostname, node);
      }
    }
  }

  node(hostname: string): SimNode {
    const node = this.nodes.get(hostname);
    if (!node) throw new NotFoundError("Node", { message: `No node ${hostname}` });
    return node;
  }

  gpu(uuid: string): { node: SimNode; gpu: SimGpu } {
    const found = this.gpus.get(uuid);
    if (!found) throw new NotFoundError("GPU", { message: `No GPU ${uuid}` });
    return found;
  }

  /**
   * The node, GPU and memory a replica spec's device names; for a group, its leader's node and
   * GPU, every member (rank order) and the smallest member's memory.
   */
  resolveDevice(spec: ReplicaSpec): { node: SimNode; gpu: SimGpu | null; memoryBytes: number; members: { node: SimNode; gpu: SimGpu }[] } {
    const d = spec.device;
    if (d.kind === "external") throw new InvalidInputError("device", "The simulator runs replicas on its own devices; register external servers with the external driver");
    if (d.kind === "cpu") {
      const node = this.node(d.hostname);
      return { node, gpu: null, memoryBytes: node.memoryBytes, members: [] };
    }
    if (d.kind === "group") {
      const members = d.gpuUuids.map((u) => this.gpu(u));
      const mig = members.find((m) => m.gpu.migEnabled);
      if (mig) throw new ConflictError(`GPU ${mig.gpu.index} of ${mig.node.hostname} is in MIG mode: NCCL cannot join a MIG instance to a tensor-parallel group`);
      const perNode = new Set(members.map((m) => m.node.hostname)).size;
      if (perNode !== d.pipelineParallel || members.length !== d.tensorParallel * d.pipelineParallel) throw new InvalidInputError("device", `${members.length} GPUs on ${perNode} node(s) do not make TP ${d.tensorParallel} × PP ${d.pipelineParallel}`);
      return { node: members[0]!.node, gpu: members[0]!.gpu, memoryBytes: Math.min(...members.map((m) => m.gpu.memoryBytes)), members };
    }
    const { node, gpu } = this.gpu(d.gpuUuid);
    if (d.kind === "gpu") {
      if (gpu.migEnabled) throw new ConflictError(`GPU ${gpu.index} of ${node.hostname} is in MIG mode: place the replica on one of its instances`);
      return { node, gpu, memoryBytes: gpu.memoryBytes, members: [{ node, gpu }] };
    }
    const inst = gpu.mig.find((m) => m.startSlot === d.startSlot);
    if (!inst) throw new NotFoundError("MIG instance", { message: `GPU ${gpu.index} of ${node.hostname} has no MIG instance at slot ${d.startSlot}` });
    return { node, gpu, memoryBytes: migInstanceMemoryBytes(gpu.memoryBytes, inst.profile), members: [{ node, gpu }] };
  }

  topology(): Topology {
    const pools = new Map<string, Topology["pools"][number]>();
    for (const n of this.nodes.values()) {
      const pool = pools.get(n.pool) ?? { name: n.pool, region: n.region, nodes: [] };
      pools.set(n.pool, pool);
      pool.nodes.push({ hostname: n.hostname, region: n.region, status: n.status, cordoned: n.cordoned, cpuModel: n.cpuModel, cpuCores: n.cpuCores, memoryBytes: n.memoryBytes, gpus: n.gpus.map(topologyGpu) });
    }
    return { cluster: this.cluster, pools: [...pools.values()] };
  }
}

function topologyGpu(g: SimGpu): TopologyGpu {
  return {
    index: g.index,
    uuid: g.uuid,
    modelName: g.modelName,
    memoryBytes: g.memoryBytes,
    migEnabled: g.migEnabled,
    migInstances: g.mig.map((m) => ({ ...m, memoryBytes: migInstanceMemoryBytes(g.memoryBytes, m.profile) })),
    xid: g.xid,
    nvlinkDomain: g.nvlinkDomain,
  };
}
