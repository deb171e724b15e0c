import type http from "node:http";
import { BatchingEngine, type Sequence, type SequenceResult } from "./engine.ts";
import { groupSize, usableBytes, type Parallelism } from "../../shared/memory-rule.ts";
import { LLM_DEFAULTS, SINGLE_PASS_DEFAULTS, kvBytesPerToken, type LatencyParams } from "./latency-model.ts";
import { physicalLatency, simGpu } from "./engine-physics.ts";
import { vllmMetrics } from "./vllm-metrics.ts";
import { tritonMetrics, type GpuView } from "./triton-metrics.ts";
import { KV_BLOCK_TOKENS, PrefixCache } from "./prefix-cache.ts";
import { serverPort, startMetricsServer, startReplicaServer } from "./replica-server.ts";
import { startReplicaGrpcServer } from "./replica-grpc.ts";
import type { ExporterVersions } from "../../metrics/exporters/versions.ts";
import type { Device, ReplicaSpec, ReplicaState, ReplicaStatus } from "../driver.ts";

export interface ReplicaPlacement {
  hostname: string;
  region: string;
  /** Memory the replica's engine may use: its device's memory (vLLM takes 90% of it). */
  deviceMemoryBytes: number;
  gpuUuid: string | null;
  /** Every GPU it holds, in rank order (one for a whole GPU or MIG instance, N for a group). */
  gpuUuids: string[];
  /** The nodes its GPUs are on (a pipeline spans several). */
  hostnames: string[];
  parallelism: Parallelism;
  /** The GPU's model name (null on CPU) and the share of it the replica runs on: a MIG instance's memory share, else 1. */
  gpuModel: string | null;
  deviceShare: number;
  /** A group whose GPUs share one NVLink domain (its all-reduce is faster). */
  nvlink: boolean;
  /** Where its server listens; by default 127.0.0.1 on a free port (the Kubernetes bridge gives each pod its own loopback address). */
  listen?: { host: string; port: number };
}

/** One simulated serving process (a vLLM or Triton server) on one device. */
export class SimReplica {
  state: ReplicaState = "pending";
  reason: string | null = null;
  readonly startedAt = Date.now();
  expectedReadyAt: number | null = null;
  inFlight = 0;
  private server: http.Server | null = null;
  /** Triton serves /metrics on a port of its own (8002 on a real server). */
  private metricsServer: http.Server | null = null;
  /** Triton also answers the Open Inference Protocol over gRPC on a port of its own (8001 on a real server). */
  private grpcServer: Awaited<ReturnType<typeof startReplicaGrpcServer>> | null = null;
  readonly engine: BatchingEngine;
  /** vLLM's automatic prefix caching, over as many KV blocks as the replica's cache memory holds. */
  readonly prefixCache: PrefixCache;
  private readonly vllm: ReturnType<typeof vllmMetrics> | null;
  private readonly triton: ReturnType<typeof tritonMetrics> | null;
  /** When it turned ready, for Triton's model load time. */
  readyAt: number | null = null;
  /** Set by faults: a multiplier on every latency, and a share of requests to fail. */
  slowFactor = 1;
  constructor(
    readonly spec: ReplicaSpec,
    readonly placement: ReplicaPlacement,
    latencyScale: number,
    private readonly failShare: () => number,
    gpuView: () => GpuView,
    exporters: ExporterVersions,
  ) {
    const bytesPerToken = kvBytesPerToken(spec.parameterCount, spec.attention);
    const base = latencyOf(spec, placement, bytesPerToken, latencyScale);
    // A group's cache is the sum of what each GPU has left after its shard of the weights.
    const kvCapacity = this.kvCapacityBytes;
    this.engine = new BatchingEngine(base, { bytesPerToken, capacityBytes: kvCapacity });
    const numGpuBlocks = Math.floor(kvCapacity / bytesPerToken / KV_BLOCK_TOKENS);
    this.prefixCache = new PrefixCache(numGpuBlocks);
    this.vllm = spec.task === "llm" ? vllmMetrics(spec.servedModelName, this.engine, exporters.vllm, { numGpuBlocks }) : null;
    this.triton = spec.task === "llm" ? null : tritonMetrics(spec.servedModelName, spec.versionLabel, this.engine, gpuView, () => (this.readyAt ? (this.readyAt - this.startedAt) / 1000 : null));
    this.baseScale = latencyScale;
  }
  private readonly baseScale: number;

  get port(): number | null {
    return this.server ? serverPort(this.server) : null;
  }
  get host(): string {
    return this.placement.listen?.host ?? "127.0.0.1";
  }
  get url(): string | null {
    return this.port ? `http://${this.host}:${this.port}` : null;
  }
  /** Where Prometheus scrapes it: vLLM's API port, Triton's own metrics port. */
  get metricsUrl(): string | null {
    if (this.triton) return this.metricsServer ? `http://127.0.0.1:${serverPort(this.metricsServer)}/metrics` : null;
    return this.url ? `${this.url}/metrics` : null;
  }
  /** host:port of its KServe v2 gRPC service (Triton's replicas only). */
  get grpcTarget(): string | null {
    return this.grpcServer ? `${this.host}:${this.grpcServer.port}` : null;
  }
  /** KV-cache bytes the engine has, over all its GPUs. */
  get kvCapacityBytes(): number {
    const n = groupSize(this.placement.parallelism);
    return n * Math.max(0, usableBytes(this.placement.deviceMemoryBytes) - this.spec.weightBytes / n);
  }
  /** KV-cache bytes held right now on each of its GPUs (framebuffer used beyond the weights). */
  get kvBytesInUse(): number {
    return (this.engine.kvCacheUsage * this.kvCapacityBytes) / groupSize(this.placement.parallelism);
  }
  /** Weight bytes on each of its GPUs. */
  get weightBytesPerGpu(): number {
    return this.spec.weightBytes / groupSize(this.placement.parallelism);
  }

  async listen(): Promise<void> {
    this.server = await startReplicaServer(this, this.placement.listen);
    if (this.triton) {
      this.metricsServer = await startMetricsServer(() => this.triton!.registry.metrics());
      this.grpcServer = await startReplicaGrpcServer(this, this.host);
    }
  }

  setSlow(factor: number) {
    this.slowFactor = factor;
    this.engine.params = { ...this.engine.params, scale: this.baseScale * factor };
  }

  answersTo(model: string) {
    return model === this.spec.endpointSlug || model === this.spec.servedModelName;
  }
  acceptsWork() {
    return this.state === "ready";
  }
  errorShare() {
    return this.failShare();
  }

  /**
   * Runs a sequence through the engine. `finish` is the reason the answer ends when it is not cut
   * short; `cachedTokens` the prompt tokens the prefix cache served (vLLM counts them);
   * `requestedMaxTokens` the request's max_tokens.
   */
  async run(seq: Sequence, opts: { cachedTokens?: number; finish?: "stop" | "length"; requestedMaxTokens?: number } = {}): Promise<SequenceResult> {
    this.inFlight++;
    try {
      const r = await this.engine.submit(opts.cachedTokens ? { ...seq, cachedTokens: opts.cachedTokens } : seq);
      const finishedReason = r.aborted ? "abort" : (opts.finish ?? (r.tokens < seq.maxTokens ? "stop" : "length"));
      this.vllm?.observe({ promptTokens: seq.promptTokens, cachedTokens: opts.cachedTokens ?? 0, maxTokens: opts.requestedMaxTokens ?? seq.maxTokens, result: r, finishedReason });
      this.triton?.observe(r);
      return r;
    } finally {
      this.inFlight--;
    }
  }
  /** A request the engine failed (an injected fault): Triton counts it as a backend failure. */
  recordFailure() {
    this.triton?.failed("BACKEND");
  }

  /** vLLM's /metrics on the API port; Triton has none there (its page is on the metrics port). */
  metricsText(): Promise<string> | null {
    return this.vllm ? this.vllm.registry.metrics() : null;
  }

  status(): ReplicaStatus {
    return {
      id: this.spec.id,
      state: this.state,
      reason: this.reason,
      url: this.url,
      metricsUrl: this.metricsUrl,
      // vLLM's --max-num-seqs as this engine runs it (Triton's batcher has no such setting).
      maxNumSeqs: this.vllm ? this.engine.params.maxBatch : null,
      device: this.spec.device as Device,
      hostname: this.placement.hostname,
      region: this.placement.region,
      expectedReadyAt: this.state === "loading" ? this.expectedReadyAt : null,
      inFlight: this.inFlight,
    };
  }

  /** Closes the port at once: in-flight connections are cut, as when a process dies. */
  async close(): Promise<void> {
    const servers = [this.server, this.metricsServer].filter((s): s is http.Server => s !== null);
    this.server = null;
    this.metricsServer = null;
    this.grpcServer?.close();
    this.grpcServer = null;
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  }
}

/**
 * An LLM on a GPU steps as its GPU and model make it (engine-physics.ts); single-pass models,
 * and LLMs on CPU, keep the engine's nominal figures.
 */
function latencyOf(spec: ReplicaSpec, placement: ReplicaPlacement, kvBytesPerToken: number, scale: number): LatencyParams {
  if (spec.task !== "llm") return { ...SINGLE_PASS_DEFAULTS, scale };
  if (!placement.gpuModel) return { ...LLM_DEFAULTS, scale };
  // Without a model card, a Llama-like depth: ~32 layers at 8B, growing with the cube root of size.
  const layers = spec.attention?.layers ?? Math.max(16, Math.round(32 * Math.cbrt(spec.parameterCount / 8e9)));
  return physicalLatency(
    { parameterCount: spec.parameterCount, weightBytes: spec.weightBytes, kvBytesPerToken, layers },
    { gpu: simGpu(placement.gpuModel), ...placement.parallelism, nvlink: placement.nvlink, share: placement.deviceShare },
    scale,
  );
}
