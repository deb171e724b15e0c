import { EventEmitter } from "node:events";
import { SimReplica } from "./replica.ts";
import { coldStartMs, kvBytesPerToken, MIN_KV_TOKENS } from "./latency-model.ts";
import { migInstanceMemoryBytes, supportsMig, validateMigLayout, type MigInstanceSpec } from "../mig.ts";
import type { ClusterEvent, ReplicaSpec, ReplicaStatus, Topology, TopologyGpu, TopologyNode } from "../driver.ts";

export interface SimOptions {
  /** Bytes per second weights load from storage at (cold start). */
  storageBandwidth: number;
  /** Multiplies every simulated latency; 0 answers at once (benchmarks). */
  latencyScale: number;
}

interface SimGpu {
  index: number;
  uuid: string;
  modelName: string;
  memoryBytes: number;
  migEnabled: boolean;
  mig: MigInstanceSpec[];
  xid: number;
}
interface SimNode {
  pool: string;
  hostname: string;
  region: string;
  status: TopologyNode["status"];
  cordoned: boolean;
  memoryBytes: number;
  gpus: SimGpu[];
}

export class SimError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const GiB = 2 ** 30;
const fmtGiB = (b: number) => (b / GiB).toFixed(2);
/** Idle and maximum board power of the cards the reference cluster has. */
const POWER: Record<string, [number, number]> = { H100: [72, 700], L40S: [36, 350], A100: [55, 400] };
const powerOf = (model: string) => POWER[Object.keys(POWER).find((k) => model.includes(k)) ?? "H100"]!;

/**
 * The simulated cluster: its nodes, GPUs and MIG instances, the replicas running on them, and
 * the faults an operator injected. Everything the sim process serves is read from here.
 */
export class SimCluster {
  private nodes = new Map<string, SimNode>();
  private gpus = new Map<string, { node: SimNode; gpu: SimGpu }>();
  readonly replicas = new Map<string, SimReplica>();
  private events = new EventEmitter();
  /** Injected: share of requests a version fails, by version id. */
  private versionErrorShare = new Map<string, number>();

  constructor(
    topology: Topology,
    readonly opts: SimOptions,
  ) {
    this.events.setMaxListeners(0);
    for (const pool of topology.pools) {
      for (const n of pool.nodes) {
        const node: SimNode = { pool: pool.name, hostname: n.hostname, region: n.region, status: n.status, cordoned: n.cordoned, memoryBytes: 512 * GiB, gpus: [] };
        for (const g of n.gpus) {
          const gpu: SimGpu = { index: g.index, uuid: g.uuid, modelName: g.modelName, memoryBytes: g.memoryBytes, migEnabled: g.migEnabled, mig: g.migInstances.map((m) => ({ profile: m.profile, startSlot: m.startSlot })), xid: 0 };
          node.gpus.push(gpu);
          this.gpus.set(gpu.uuid, { node, gpu });
        }
        this.nodes.set(node.hostname, node);
      }
    }
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
    const pools = new Map<string, Topology["pools"][number]>();
    for (const n of this.nodes.values()) {
      const pool = pools.get(n.pool) ?? { name: n.pool, region: n.region, nodes: [] };
      pools.set(n.pool, pool);
      pool.nodes.push({
        hostname: n.hostname,
        region: n.region,
        status: n.status,
        cordoned: n.cordoned,
        gpus: n.gpus.map(
          (g): TopologyGpu => ({
            index: g.index,
            uuid: g.uuid,
            modelName: g.modelName,
            memoryBytes: g.memoryBytes,
            migEnabled: g.migEnabled,
            migInstances: g.mig.map((m) => ({ ...m, memoryBytes: migInstanceMemoryBytes(g.memoryBytes, m.profile) })),
            xid: g.xid,
          }),
        ),
      });
    }
    return { pools: [...pools.values()] };
  }

  replicaStatuses(): ReplicaStatus[] {
    return [...this.replicas.values()].map((r) => r.status());
  }

  replica(id: string): SimReplica {
    const r = this.replicas.get(id);
    if (!r) throw new SimError(404, `No replica ${id}`);
    return r;
  }

  /** Memory of the device a spec names, and where it is. */
  private resolveDevice(spec: ReplicaSpec): { node: SimNode; gpu: SimGpu | null; memoryBytes: number } {
    const d = spec.device;
    if (d.kind === "external") throw new SimError(400, "The simulator runs replicas on its own devices; register external servers with the external driver");
    if (d.kind === "cpu") {
      const node = this.nodes.get(d.hostname);
      if (!node) throw new SimError(404, `No node ${d.hostname}`);
      return { node, gpu: null, memoryBytes: node.memoryBytes };
    }
    const found = this.gpus.get(d.gpuUuid);
    if (!found) throw new SimError(404, `No GPU ${d.gpuUuid}`);
    if (d.kind === "gpu") {
      if (found.gpu.migEnabled) throw new SimError(409, `GPU ${found.gpu.index} of ${found.node.hostname} is in MIG mode: place the replica on one of its instances`);
      return { node: found.node, gpu: found.gpu, memoryBytes: found.gpu.memoryBytes };
    }
    const inst = found.gpu.mig.find((m) => m.startSlot === d.startSlot);
    if (!inst) throw new SimError(404, `GPU ${found.gpu.index} of ${found.node.hostname} has no MIG instance at slot ${d.startSlot}`);
    return { node: found.node, gpu: found.gpu, memoryBytes: migInstanceMemoryBytes(found.gpu.memoryBytes, inst.profile) };
  }

  /** Replicas sharing a device (same GPU, or same MIG instance). */
  private onSameDevice(spec: ReplicaSpec): SimReplica[] {
    const key = deviceKey(spec.device);
    return [...this.replicas.values()].filter((r) => deviceKey(r.spec.device) === key && (r.state === "loading" || r.state === "ready" || r.state === "draining"));
  }

  async startReplica(spec: ReplicaSpec): Promise<ReplicaStatus> {
    if (this.replicas.has(spec.id)) throw new SimError(409, `Replica ${spec.id} already exists`);
    const { node, gpu, memoryBytes } = this.resolveDevice(spec);
    if (node.status === "down") throw new SimError(409, `Node ${node.hostname} is down`);
    if (node.cordoned) throw new SimError(409, `Node ${node.hostname} is cordoned: uncordon it to place replicas`);
    const busy = this.onSameDevice(spec);
    const replica = new SimReplica(
      spec,
      { hostname: node.hostname, region: node.region, deviceMemoryBytes: memoryBytes, gpuUuid: gpu?.uuid ?? null },
      this.opts.latencyScale,
      () => this.versionErrorShare.get(spec.versionId) ?? 0,
      () => (gpu ? { uuid: gpu.uuid, util: this.deviceBusy(gpu.uuid) , usedBytes: this.gpuUsedBytes(gpu), totalBytes: gpu.memoryBytes, powerW: this.power(gpu) } : null),
    );
    this.replicas.set(spec.id, replica);
    await replica.listen();
    replica.state = "loading";
    const loadMs = coldStartMs(spec.weightBytes, this.opts.storageBandwidth, this.opts.latencyScale === 0 ? 0 : 500);
    replica.expectedReadyAt = Date.now() + loadMs;
    this.emitReplica(replica);

    // vLLM takes 90% of the device's memory for weights plus KV cache; whatever else runs there
    // has already taken its share, so a second engine on one device runs out of memory.
    const free = busy.length ? 0 : memoryBytes * 0.9;
    const needed = spec.weightBytes + (spec.task === "llm" ? MIN_KV_TOKENS * kvBytesPerToken(spec.parameterCount) : 0);
    const fits = !gpu || needed <= free;
    // An engine that cannot fit fails when it allocates, partway through loading.
    setTimeout(() => void this.finishLoading(replica, fits, needed, memoryBytes, free), fits ? loadMs : Math.min(loadMs, loadMs * 0.6 + 200));
    return replica.status();
  }

  private async finishLoading(r: SimReplica, fits: boolean, needed: number, total: number, free: number) {
    if (r.state !== "loading") return;
    if (fits) {
      r.state = "ready";
    } else {
      r.state = "failed";
      r.reason =
        `torch.OutOfMemoryError: CUDA out of memory. Tried to allocate ${fmtGiB(needed)} GiB (weights ${fmtGiB(r.spec.weightBytes)} GiB + ` +
        `KV cache for ${MIN_KV_TOKENS} tokens). Device has a total capacity of ${fmtGiB(total)} GiB of which ${fmtGiB(free)} GiB is free.`;
      await r.close();
    }
    r.expectedReadyAt = null;
    this.emitReplica(r);
  }

  async awaitReady(id: string, timeoutMs: number): Promise<ReplicaStatus> {
    const r = this.replica(id);
    if (r.state === "ready") return r.status();
    if (r.state === "failed" || r.state === "stopped") throw new SimError(409, r.reason ?? `Replica is ${r.state}`);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new SimError(504, `Replica ${id} not ready after ${timeoutMs} ms`));
      }, timeoutMs);
      const off = this.subscribe((e) => {
        if (e.type !== "replica" || e.replica.id !== id) return;
        const { state, reason } = e.replica;
        if (state !== "ready" && state !== "failed" && state !== "stopped") return;
        clearTimeout(timer);
        off();
        if (state === "ready") resolve(e.replica);
        else reject(new SimError(409, reason ?? `Replica is ${state}`));
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
    r.reason = r.reason ?? null;
    this.emitReplica(r);
    this.replicas.delete(id);
  }

  async applyMigLayout(gpuUuid: string, layout: MigInstanceSpec[]) {
    const found = this.gpus.get(gpuUuid);
    if (!found) throw new SimError(404, `No GPU ${gpuUuid}`);
    const { gpu, node } = found;
    if (!supportsMig(gpu.modelName)) throw new SimError(409, `${gpu.modelName} does not support MIG`);
    const errors = validateMigLayout(gpu.memoryBytes / GiB, layout);
    if (errors.length) throw new SimError(400, errors.join("; "));
    const onGpu = [...this.replicas.values()].filter((r) => r.placement.gpuUuid === gpuUuid && r.state !== "stopped" && r.state !== "failed");
    if (onGpu.length) throw new SimError(409, `GPU ${gpu.index} of ${node.hostname} runs ${onGpu.length} replica(s): stop or drain them first (a layout change needs an idle GPU)`);
    gpu.migEnabled = layout.length > 0;
    gpu.mig = layout.map((m) => ({ ...m }));
    this.emit({ type: "mig", hostname: node.hostname, gpuUuid, layout: gpu.mig, at: Date.now() });
  }

  setCordon(hostname: string, cordoned: boolean) {
    const node = this.nodes.get(hostname);
    if (!node) throw new SimError(404, `No node ${hostname}`);
    node.cordoned = cordoned;
    this.emit({ type: "node", hostname, status: node.status, cordoned, at: Date.now() });
  }

  // ---- faults ----------------------------------------------------------------------------

  async killReplica(id: string) {
    const r = this.replica(id);
    await r.close();
    r.state = "failed";
    r.reason = "Engine process exited unexpectedly (killed by signal 9).";
    this.emitReplica(r);
  }

  /** An XID error on a GPU: dcgm reports the code, and the engines on it die as on real hardware. */
  async gpuXid(gpuUuid: string, xid: number) {
    const found = this.gpus.get(gpuUuid);
    if (!found) throw new SimError(404, `No GPU ${gpuUuid}`);
    found.gpu.xid = xid;
    this.emit({ type: "gpu-error", hostname: found.node.hostname, gpuUuid, xid, at: Date.now() });
    for (const r of this.replicas.values()) {
      if (r.placement.gpuUuid === gpuUuid && (r.state === "ready" || r.state === "loading" || r.state === "draining")) {
        await r.close();
        r.state = "failed";
        r.reason = `CUDA error: unspecified launch failure (GPU ${found.gpu.index} reported XID ${xid}).`;
        this.emitReplica(r);
      }
    }
  }

  async setNodeStatus(hostname: string, status: TopologyNode["status"]) {
    const node = this.nodes.get(hostname);
    if (!node) throw new SimError(404, `No node ${hostname}`);
    node.status = status;
    this.emit({ type: "node", hostname, status, cordoned: node.cordoned, at: Date.now() });
    if (status !== "down") return;
    for (const r of this.replicas.values()) {
      if (r.placement.hostname === hostname && r.state !== "stopped" && r.state !== "failed") {
        await r.close();
        r.state = "failed";
        r.reason = `Node ${hostname} is down.`;
        this.emitReplica(r);
      }
    }
  }

  slowReplica(id: string, factor: number) {
    if (!(factor >= 1 && factor <= 100)) throw new SimError(400, "factor must be between 1 and 100");
    this.replica(id).setSlow(factor);
  }

  setVersionErrorShare(versionId: string, share: number) {
    if (!(share >= 0 && share <= 1)) throw new SimError(400, "share must be between 0 and 1");
    if (share === 0) this.versionErrorShare.delete(versionId);
    else this.versionErrorShare.set(versionId, share);
  }

  /** Clears every injected fault: XIDs, slow replicas, error shares, down nodes. */
  clearFaults() {
    this.versionErrorShare.clear();
    for (const { gpu } of this.gpus.values()) gpu.xid = 0;
    for (const r of this.replicas.values()) r.setSlow(1);
    for (const n of this.nodes.values()) if (n.status === "down") void this.setNodeStatus(n.hostname, "ready");
  }

  faults() {
    return {
      versionErrorShare: Object.fromEntries(this.versionErrorShare),
      xids: [...this.gpus.values()].filter((g) => g.gpu.xid).map((g) => ({ gpuUuid: g.gpu.uuid, hostname: g.node.hostname, xid: g.gpu.xid })),
      slowReplicas: [...this.replicas.values()].filter((r) => r.slowFactor !== 1).map((r) => ({ id: r.spec.id, factor: r.slowFactor })),
      downNodes: [...this.nodes.values()].filter((n) => n.status === "down").map((n) => n.hostname),
    };
  }

  // ---- what dcgm-exporter would read off the hardware -------------------------------------

  private replicasOn(gpuUuid: string, startSlot?: number) {
    return [...this.replicas.values()].filter(
      (r) => r.placement.gpuUuid === gpuUuid && r.state !== "stopped" && r.state !== "failed" && (startSlot === undefined || (r.spec.device.kind === "mig" && r.spec.device.startSlot === startSlot)),
    );
  }

  /** 0–1: how busy a device's engines keep it (work in flight against their batch size). */
  deviceBusy(gpuUuid: string, startSlot?: number): number {
    let busy = 0;
    for (const r of this.replicasOn(gpuUuid, startSlot)) {
      const running = r.engine.runningCount;
      if (running > 0) busy = Math.max(busy, Math.min(1, 0.35 + (0.65 * running) / r.engine.params.maxBatch + (r.engine.waitingCount > 0 ? 0.1 : 0)));
    }
    return busy;
  }

  /** Framebuffer used: weights plus KV cache in use plus ~0.5 GiB of CUDA context per engine. */
  usedBytes(gpuUuid: string, startSlot?: number): number {
    return this.replicasOn(gpuUuid, startSlot).reduce((s, r) => s + (r.state === "loading" ? r.spec.weightBytes * loadedShare(r) : r.spec.weightBytes + r.kvBytesInUse) + 0.5 * GiB, 0);
  }
  private gpuUsedBytes(gpu: SimGpu) {
    return this.usedBytes(gpu.uuid);
  }
  private power(gpu: SimGpu) {
    const [idle, max] = powerOf(gpu.modelName);
    return idle + (max - idle) * this.deviceBusy(gpu.uuid);
  }

  /** The node's dcgm-exporter page, or null when the node is down (its exporter is unreachable). */
  dcgmText(hostname: string): string | null {
    const node = this.nodes.get(hostname);
    if (!node) throw new SimError(404, `No node ${hostname}`);
    if (node.status === "down") return null;
    const out = new DcgmWriter();
    for (const g of node.gpus) {
      const base = { gpu: String(g.index), UUID: g.uuid, device: `nvidia${g.index}`, modelName: g.modelName, Hostname: hostname };
      const busy = this.deviceBusy(g.uuid);
      const [idle, max] = powerOf(g.modelName);
      const usedMiB = Math.round(this.usedBytes(g.uuid) / 2 ** 20);
      const totalMiB = Math.round(g.memoryBytes / 2 ** 20);
      out.add("DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).", base, Math.round(busy * 100));
      out.add("DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %).", base, Math.round(busy * 45));
      out.add("DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB).", base, usedMiB);
      out.add("DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB).", base, Math.max(0, totalMiB - usedMiB));
      out.add("DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W).", base, +(idle + (max - idle) * busy).toFixed(3));
      out.add("DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C).", base, Math.round(31 + 48 * busy));
      out.add("DCGM_FI_DEV_MEMORY_TEMP", "gauge", "Memory temperature (in C).", base, Math.round(35 + 40 * busy));
      out.add("DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz).", base, busy > 0 ? 1980 : 345);
      out.add("DCGM_FI_DEV_MEM_CLOCK", "gauge", "Memory clock frequency (in MHz).", base, 2619);
      out.add("DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered.", base, g.xid);
      if (!g.migEnabled) {
        out.add("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gauge", "Ratio of time the graphics engine is active.", base, +busy.toFixed(4));
        out.add("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "gauge", "Ratio of cycles the tensor (HMMA) pipe is active.", base, +(busy * 0.6).toFixed(4));
        out.add("DCGM_FI_PROF_DRAM_ACTIVE", "gauge", "Ratio of cycles the device memory interface is active.", base, +(busy * 0.5).toFixed(4));
      }
      // Per MIG instance, dcgm-exporter reports the GR engine and framebuffer, labelled by profile and instance id.
      g.mig.forEach((m, i) => {
        const labels = { ...base, GPU_I_PROFILE: m.profile, GPU_I_ID: String(i + 1) };
        const ib = this.deviceBusy(g.uuid, m.startSlot);
        const memMiB = Math.round(migInstanceMemoryBytes(g.memoryBytes, m.profile) / 2 ** 20);
        const usedI = Math.round(this.usedBytes(g.uuid, m.startSlot) / 2 ** 20);
        out.add("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gauge", "Ratio of time the graphics engine is active.", labels, +ib.toFixed(4));
        out.add("DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB).", labels, usedI);
        out.add("DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB).", labels, Math.max(0, memMiB - usedI));
      });
    }
    return out.text();
  }

  /** Prometheus http_sd: every node exporter and every replica that is up, with Kule's labels. */
  serviceDiscovery(controlHostPort: string) {
    const targets: { targets: string[]; labels: Record<string, string> }[] = [];
    for (const n of this.nodes.values()) {
      if (n.gpus.length === 0) continue;
      targets.push({ targets: [controlHostPort], labels: { job: "dcgm", __metrics_path__: `/dcgm/${n.hostname}/metrics`, kule_node: n.hostname, kule_pool: n.pool, kule_region: n.region } });
    }
    for (const r of this.replicas.values()) {
      if (!r.port || (r.state !== "ready" && r.state !== "draining" && r.state !== "loading")) continue;
      targets.push({
        targets: [`127.0.0.1:${r.port}`],
        labels: {
          job: r.spec.task === "llm" ? "vllm" : "triton",
          kule_replica: r.spec.id,
          kule_endpoint: r.spec.endpointSlug,
          kule_version: r.spec.versionLabel,
          kule_version_id: r.spec.versionId,
          // The engine's --max-num-seqs, which Kule chose when it started the replica: vLLM does
          // not export it, and batch fill (running / maximum batch) needs it.
          kule_max_num_seqs: String(r.engine.params.maxBatch),
          kule_node: r.placement.hostname,
          kule_region: r.placement.region,
        },
      });
    }
    return targets;
  }

  async shutdown() {
    for (const r of this.replicas.values()) await r.close();
    this.replicas.clear();
  }
}

function loadedShare(r: SimReplica): number {
  if (!r.expectedReadyAt) return 1;
  const total = r.expectedReadyAt - r.startedAt;
  return total <= 0 ? 1 : Math.min(1, (Date.now() - r.startedAt) / total);
}

function deviceKey(d: ReplicaSpec["device"]): string {
  if (d.kind === "external") return `external:${d.url}`;
  return d.kind === "cpu" ? `cpu:${d.hostname}` : d.kind === "gpu" ? `gpu:${d.gpuUuid}` : `mig:${d.gpuUuid}:${d.startSlot}`;
}

/** Prometheus text exposition, grouped by metric name as the format requires. */
class DcgmWriter {
  private metrics = new Map<string, { type: string; help: string; lines: string[] }>();
  add(name: string, type: string, help: string, labels: Record<string, string>, value: number) {
    const m = this.metrics.get(name) ?? { type, help, lines: [] };
    this.metrics.set(name, m);
    const l = Object.entries(labels)
      .map(([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`)
      .join(",");
    m.lines.push(`${name}{${l}} ${value}`);
  }
  text(): string {
    let s = "";
    for (const [name, m] of this.metrics) s += `# HELP ${name} ${m.help}\n# TYPE ${name} ${m.type}\n${m.lines.join("\n")}\n`;
    return s;
  }
}
