import type http from "node:http";
import { BatchingEngine, type Sequence, type SequenceResult } from "./engine.ts";
import { LLM_DEFAULTS, SINGLE_PASS_DEFAULTS, kvBytesPerToken, type LatencyParams } from "./latency-model.ts";
import { tritonMetrics, vllmMetrics } from "./replica-metrics.ts";
import { serverPort, startReplicaServer } from "./replica-server.ts";
import type { Device, ReplicaSpec, ReplicaState, ReplicaStatus } from "../driver.ts";

export interface ReplicaPlacement {
  hostname: string;
  region: string;
  /** Memory the replica's engine may use: its device's memory (vLLM takes 90% of it). */
  deviceMemoryBytes: number;
  gpuUuid: string | null;
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
  readonly engine: BatchingEngine;
  private readonly vllm: ReturnType<typeof vllmMetrics> | null;
  private readonly triton: ReturnType<typeof tritonMetrics> | null;
  /** Set by faults: a multiplier on every latency, and a share of requests to fail. */
  slowFactor = 1;
  constructor(
    readonly spec: ReplicaSpec,
    readonly placement: ReplicaPlacement,
    latencyScale: number,
    private readonly failShare: () => number,
    gpuView: () => { uuid: string; util: number; usedBytes: number; totalBytes: number; powerW: number } | null,
  ) {
    const base: LatencyParams = { ...(spec.task === "llm" ? LLM_DEFAULTS : SINGLE_PASS_DEFAULTS), scale: latencyScale };
    const bytesPerToken = kvBytesPerToken(spec.parameterCount);
    const kvCapacity = Math.max(0, placement.deviceMemoryBytes * 0.9 - spec.weightBytes);
    this.engine = new BatchingEngine(base, { bytesPerToken, capacityBytes: kvCapacity });
    this.vllm = spec.task === "llm" ? vllmMetrics(spec.servedModelName, this.engine) : null;
    this.triton = spec.task === "llm" ? null : tritonMetrics(spec.servedModelName, spec.versionLabel, this.engine, gpuView);
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
  /** KV-cache bytes held right now (framebuffer used beyond the weights). */
  get kvBytesInUse(): number {
    return this.engine.kvCacheUsage * Math.max(0, this.placement.deviceMemoryBytes * 0.9 - this.spec.weightBytes);
  }

  async listen(): Promise<void> {
    this.server = await startReplicaServer(this, this.placement.listen);
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

  async run(seq: Sequence): Promise<SequenceResult> {
    this.inFlight++;
    try {
      const r = await this.engine.submit(seq);
      const finish = r.aborted ? "abort" : r.tokens < seq.maxTokens ? "stop" : "length";
      this.vllm?.observe(seq.promptTokens, r, finish);
      this.triton?.observe(r, false);
      return r;
    } finally {
      this.inFlight--;
    }
  }
  recordFailure() {
    this.triton?.observe({ queueMs: 0, ttftMs: 0, e2eMs: 0, tokens: 0, itlMs: 0, aborted: false }, true);
  }

  metricsText(): Promise<string> {
    return (this.vllm ?? this.triton)!.registry.metrics();
  }

  status(): ReplicaStatus {
    return {
      id: this.spec.id,
      state: this.state,
      reason: this.reason,
      url: this.url,
      device: this.spec.device as Device,
      hostname: this.placement.hostname,
      region: this.placement.region,
      expectedReadyAt: this.state === "loading" ? this.expectedReadyAt : null,
      inFlight: this.inFlight,
    };
  }

  /** Closes the port at once: in-flight connections are cut, as when a process dies. */
  async close(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
}
