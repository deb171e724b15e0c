import { EventEmitter } from "node:events";
import { SimReplica } from "./replica.ts";
import { coldStartMs } from "./latency-model.ts";
import { groupSize, memoryNeed, MIN_KV_TOKENS, SINGLE, usableBytes } from "../../shared/memory-rule.ts";
import { SimInventory } from "./inventory.ts";
import { GpuReadings } from "./gpu-readings.ts";
import { dcgmExposition } from "./dcgm-exporter.ts";
import { serviceDiscovery } from "./service-discovery.ts";
import { supportsMig, validateMigLayout, type MigInstanceSpec } from "../mig.ts";
import { ConflictError, DomainError, NotFoundError, TimeoutError } from "../../errors.ts";
import type { ClusterEvent, ReplicaSpec, ReplicaStatus, Topology, TopologyNode } from "../driver.ts";
import { EXPORTER_PROFILES, type ExporterVersions } from "../../metrics/exporters/versions.ts";

export interface SimOptions {
  /** Bytes per second weights load from storage at (cold start). */
  storageBandwidth: number;
  /** Multiplies every simulated latency; 0 answers at once (benchmarks). */
  latencyScale: number;
  /** Which releases of vLLM, dcgm-exporter and Triton the metrics imitate (default: the newest supported). */
  exporters?: ExporterVersions;
}

const GiB = 2 ** 30;
const fmtGiB = (b: number) => (b / GiB).toFixed(2);
/** What a device takes: a group takes each of its GPUs whole. */
const deviceKeys = (d: ReplicaSpec["device"]): string[] =>
  d.kind === "external" ? [`external:${d.url}`] : d.kind === "cpu" ? [`cpu:${d.hostname}`] : d.kind === "gpu" ? [`gpu:${d.gpuUuid}`] : d.kind === "group" ? d.gpuUuids.map((u) => `gpu:${u}`) : [`mig:${d.gpuUuid}:${d.startSlot}`];

/**
 * The simulated cluster: the replicas running on its hardware (SimInventory), their lifecycle,
 * MIG layouts, cordons and the faults an operator injected. Everything the sim process serves is
 * read from here.
 */
export class SimCluster {
  readonly inventory: SimInventory;
  readonly replicas = new Map<string, SimReplica>();
  readonly readings = new GpuReadings(this.replicas);
  private events = new EventEmitter();
  /** Injected: share of requests a version fails, by version id. */
  private versionErrorShare = new Map<string, number>();

  readonly exporters: ExporterVersions;

  constructor(
    topology: Topology,
    readonly opts: SimOptions,
  ) {
    this.events.setMaxListeners(0);
    this.inventory = new SimInventory(topology);
    this.exporters = opts.exporters ?? EXPORTER_PROFILES.newest;
  }

  subscribe(listener: (e: ClusterEvent) => void): () => void {
    this.events.on("event", listener);
    return () => this.events.off("event", listener);
  }
  private emit(e: ClusterEvent) {
    this.events.emit("event", e);
  }
  private emitReplica(r: SimReplica) {
    this.emit({ type: "replica", replica: r.status(), at: Date.now() });
  }

  topology(): Topology {
    return this.inventory.topology();
  }

  replicaStatuses(): ReplicaStatus[] {
    return [...this.replicas.values()].map((r) => r.status());
  }

  replica(id: string): SimReplica {
    const r = this.replicas.get(id);
    if (!r) throw new NotFoundError("Replica", { message: `No replica ${id}` });
    return r;
  }

  /** Replicas sharing a device (same GPU, or same MIG instance; any GPU of a group). */
  private onSameDevice(spec: ReplicaSpec): SimReplica[] {
    const keys = new Set(deviceKeys(spec.device));
    return [...this.replicas.values()].filter((r) => deviceKeys(r.spec.device).some((k) => keys.has(k)) && (r.state === "loading" || r.state === "ready" || r.state === "draining"));
  }

  async startReplica(spec: ReplicaSpec, opts: { listen?: { host: string; port: number } } = {}): Promise<ReplicaStatus> {
    if (this.replicas.has(spec.id)) throw new ConflictError(`Replica ${spec.id} already exists`);
    const { node, gpu, memoryBytes, members } = this.inventory.resolveDevice(spec);
    for (const n of new Set([node, ...members.map((m) => m.node)])) {
      if (n.status === "down") throw new ConflictError(`Node ${n.hostname} is down`);
      if (n.cordoned) throw new ConflictError(`Node ${n.hostname} is cordoned: uncordon it to place replicas`);
    }
    const busy = this.onSameDevice(spec);
    const parallelism = spec.device.kind === "group" ? { tensor: spec.device.tensorParallel, pipeline: spec.device.pipelineParallel } : SINGLE;
    const replica = new SimReplica(
      spec,
      {
        hostname: node.hostname,
        region: node.region,
        deviceMemoryBytes: memoryBytes,
        gpuUuid: gpu?.uuid ?? null,
        gpuUuids: members.map((m) => m.gpu.uuid),
        hostnames: [...new Set(members.map((m) => m.node.hostname))],
        parallelism,
        gpuModel: gpu?.modelName ?? null,
        deviceShare: gpu ? memoryBytes / gpu.memoryBytes : 1,
        nvlink: members.length > 1 && members.every((m) => m.gpu.nvlinkDomain !== null && m.gpu.nvlinkDomain === members[0]!.gpu.nvlinkDomain),
        listen: opts.listen,
      },
      this.opts.latencyScale,
      () => this.versionErrorShare.get(spec.versionId) ?? 0,
      () => (gpu ? this.readings.view(gpu) : null),
      this.exporters,
    );
    this.replicas.set(spec.id, replica);
    try {
      await replica.listen();
    } catch (e) {
      this.replicas.delete(spec.id);
      throw e;
    }
    replica.state = "loading";
    // Each node of a pipeline loads its own stages' weights, side by side; the GPUs of one node share its storage link.
    const loadMs = coldStartMs(spec.weightBytes / (spec.device.kind === "group" ? spec.device.pipelineParallel : 1), this.opts.storageBandwidth, this.opts.latencyScale === 0 ? 0 : 500);
    replica.expectedReadyAt = Date.now() + loadMs;
    this.emitReplica(replica);

    // vLLM takes 90% of the device's memory for weights plus KV cache; whatever else runs there
    // has already taken its share, so a second engine on one device runs out of memory. Each GPU
    // of a group loads its shard (memory-rule.ts), so each must hold that much.
    const free = busy.length ? 0 : usableBytes(memoryBytes);
    const needed = memoryNeed(spec, parallelism).bytes;
    const fits = !gpu || needed <= free;
    // An engine that cannot fit fails when it allocates, partway through loading.
    setTimeout(() => void this.finishLoading(replica, fits, needed, memoryBytes, free), fits ? loadMs : Math.min(loadMs, loadMs * 0.6 + 200));
    return replica.status();
  }

  private async finishLoading(r: SimReplica, fits: boolean, needed: number, total: number, free: number) {
    if (r.state !== "loading") return;
    if (fits) {
      r.state = "ready";
      r.readyAt = Date.now();
    } else {
      r.state = "failed";
      r.reason =
        `torch.OutOfMemoryError: CUDA out of memory. Tried to allocate ${fmtGiB(needed)} GiB (weights ${fmtGiB(r.spec.weightBytes / groupSize(r.placement.parallelism))} GiB + ` +
        `KV cache for ${MIN_KV_TOKENS} tokens). Device has a total capacity of ${fmtGiB(total)} GiB of which ${fmtGiB(free)} GiB is free.`;
      await r.close();
    }
    r.expectedReadyAt = null;
    this.emitReplica(r);
  }

  async awaitReady(id: string, timeoutMs: number): Promise<ReplicaStatus> {
    const r = this.replica(id);
    if (r.state === "ready") return r.status();
    if (r.state === "failed" || r.state === "stopped") throw new ConflictError(r.reason ?? `Replica is ${r.state}`);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new TimeoutError(`Replica ${id} not ready after ${timeoutMs} ms`));
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

  /** Stops a replica; with drainMs, new requests are refused while in-flight ones finish. */
  async stopReplica(id: string, drainMs = 0): Promise<void> {
    const r = this.replica(id);
    if (r.state === "stopped") return;
    if (drainMs > 0 && r.state === "ready") {
      r.state = "draining";
      this.emitReplica(r);
      const until = Date.now() + drainMs;
      while (r.inFlight > 0 && Date.now() < until) await new Promise((res) => setTimeout(res, 50));
    }
    await r.close();
    r.state = "stopped";
    this.emitReplica(r);
    this.replicas.delete(id);
  }

  async applyMigLayout(gpuUuid: string, layout: MigInstanceSpec[]) {
    const { gpu, node } = this.inventory.gpu(gpuUuid);
    if (!supportsMig(gpu.modelName)) throw new ConflictError(`${gpu.modelName} does not support MIG`);
    const errors = validateMigLayout(gpu.memoryBytes / GiB, layout);
    if (errors.length) throw new DomainError(errors.join("; "), { field: "layout" });
    const onGpu = [...this.replicas.values()].filter((r) => (r.placement.gpuUuid === gpuUuid || r.placement.gpuUuids.includes(gpuUuid)) && r.state !== "stopped" && r.state !== "failed");
    if (onGpu.length) throw new ConflictError(`GPU ${gpu.index} of ${node.hostname} runs ${onGpu.length} replica(s): stop or drain them first (a layout change needs an idle GPU)`);
    gpu.migEnabled = layout.length > 0;
    gpu.mig = layout.map((m) => ({ ...m }));
    this.emit({ type: "mig", hostname: node.hostname, gpuUuid, layout: gpu.mig, at: Date.now() });
  }

  setCordon(hostname: string, cordoned: boolean) {
    const node = this.inventory.node(hostname);
    node.cordoned = cordoned;
    this.emit({ type: "node", hostname, status: node.status, cordoned, at: Date.now() });
  }

  /** Closes every replica `match` picks as failed, with the engine's last words. */
  private async failReplicas(match: (r: SimReplica) => boolean, reason: string) {
    for (const r of this.replicas.values()) {
      if (!match(r)) continue;
      await r.close();
      r.state = "failed";
      r.reason = reason;
      this.emitReplica(r);
    }
  }

  // ---- faults ----------------------------------------------------------------------------

  async killReplica(id: string) {
    const r = this.replica(id);
    await this.failReplicas((x) => x === r, "Engine process exited unexpectedly (killed by signal 9).");
  }

  /** An XID error on a GPU: dcgm reports the code, and the engines on it die as on real hardware. */
  async gpuXid(gpuUuid: string, xid: number) {
    const { node, gpu } = this.inventory.gpu(gpuUuid);
    gpu.xid = xid;
    this.emit({ type: "gpu-error", hostname: node.hostname, gpuUuid, xid, at: Date.now() });
    const live = (r: SimReplica) => r.state === "ready" || r.state === "loading" || r.state === "draining";
    await this.failReplicas((r) => r.placement.gpuUuid === gpuUuid && r.placement.gpuUuids.length <= 1 && live(r), `CUDA error: unspecified launch failure (GPU ${gpu.index} reported XID ${xid}).`);
    // NCCL's collectives wait on every rank: one GPU lost takes the whole group's engine down.
    await this.failReplicas((r) => r.placement.gpuUuids.length > 1 && r.placement.gpuUuids.includes(gpuUuid) && live(r), `NCCL error: unhandled cuda error (GPU ${gpu.index} of ${node.hostname} reported XID ${xid}); the whole group stopped.`);
  }

  async setNodeStatus(hostname: string, status: TopologyNode["status"]) {
    const node = this.inventory.node(hostname);
    node.status = status;
    this.emit({ type: "node", hostname, status, cordoned: node.cordoned, at: Date.now() });
    if (status !== "down") return;
    await this.failReplicas((r) => (r.placement.hostname === hostname || r.placement.hostnames.includes(hostname)) && r.state !== "stopped" && r.state !== "failed", `Node ${hostname} is down.`);
  }

  slowReplica(id: string, factor: number) {
    if (!(factor >= 1 && factor <= 100)) throw new DomainError("factor must be between 1 and 100", { field: "factor" });
    this.replica(id).setSlow(factor);
  }

  setVersionErrorShare(versionId: string, share: number) {
    if (!(share >= 0 && share <= 1)) throw new DomainError("share must be between 0 and 1", { field: "share" });
    if (share === 0) this.versionErrorShare.delete(versionId);
    else this.versionErrorShare.set(versionId, share);
  }

  /** Clears every injected fault: XIDs, slow replicas, error shares, down nodes. */
  clearFaults() {
    this.versionErrorShare.clear();
    for (const { gpu } of this.inventory.gpus.values()) gpu.xid = 0;
    for (const r of this.replicas.values()) r.setSlow(1);
    for (const n of this.inventory.nodes.values()) if (n.status === "down") void this.setNodeStatus(n.hostname, "ready");
  }

  faults() {
    const gpus = [...this.inventory.gpus.values()];
    return {
      versionErrorShare: Object.fromEntries(this.versionErrorShare),
      xids: gpus.filter((g) => g.gpu.xid).map((g) => ({ gpuUuid: g.gpu.uuid, hostname: g.node.hostname, xid: g.gpu.xid })),
      slowReplicas: [...this.replicas.values()].filter((r) => r.slowFactor !== 1).map((r) => ({ id: r.spec.id, factor: r.slowFactor })),
      downNodes: [...this.inventory.nodes.values()].filter((n) => n.status === "down").map((n) => n.hostname),
    };
  }

  // ---- what the exporters serve -------------------------------------------------------------

  /** The node's dcgm-exporter page, or null when the node is down (its exporter is unreachable). */
  dcgmText(hostname: string): string | null {
    const node = this.inventory.node(hostname);
    return node.status === "down" ? null : dcgmExposition(node, this.readings, this.exporters.dcgm);
  }

  /** The hardware's scrape targets (a dcgm-exporter per GPU node); replicas are published by Kule's own discovery. */
  serviceDiscovery(controlHostPort: string) {
    return serviceDiscovery(this.inventory, controlHostPort);
  }

  async shutdown() {
    for (const r of this.replicas.values()) await r.close();
    this.replicas.clear();
  }
}
