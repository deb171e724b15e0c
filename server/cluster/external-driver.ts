import { EventEmitter } from "node:events";
import net from "node:net";
import { Agent, request } from "undici";
import type { ClusterDriver, ClusterEvent, ReplicaSpec, ReplicaStatus, Topology } from "./driver.ts";
import { ConflictError, InvalidInputError, NotFoundError, TimeoutError } from "../errors.ts";
import { plainAddress } from "../http/address-set.ts";
import { appOutboundPolicy, defaultPort, guardedConnect, outboundRefusal, refusalSentence, type OutboundPolicy } from "../http/outbound.ts";

interface Registered {
  spec: ReplicaSpec & { device: { kind: "external"; url: string; region: string } };
  status: ReplicaStatus;
  failures: number;
  /** Its own connections: each checks the address it connects to (a name may resolve elsewhere later). */
  dispatcher: Agent;
}

/** The health endpoints servers of the field answer: KServe v2 (Triton), vLLM, and any OpenAI-compatible server. */
const PROBES = ["/v2/health/ready", "/health", "/v1/models"];

/**
 * Servers the user already runs (vLLM, Triton, any OpenAI-compatible or KServe v2 server),
 * registered by URL. Kule health-checks and routes to them; it cannot start, stop or
 * re-partition them, so "start" registers, "stop" deregisters and MIG or cordon are refused.
 */
export class ExternalDriver implements ClusterDriver {
  readonly kind = "external" as const;
  readonly capabilities = { startStop: false, mig: false, cordon: false, faults: false };
  private servers = new Map<string, Registered>();
  private events = new EventEmitter();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly opts: { healthIntervalMs: number; failuresBeforeDown: number } = { healthIntervalMs: 5000, failuresBeforeDown: 2 },
    private readonly policy: OutboundPolicy = appOutboundPolicy(),
  ) {
    this.events.setMaxListeners(0);
  }

  async listTopology(): Promise<Topology> {
    return { cluster: "external", pools: [] };
  }
  async listReplicas() {
    return [...this.servers.values()].map((s) => s.status);
  }

  async startReplica(spec: ReplicaSpec): Promise<ReplicaStatus> {
    if (spec.device.kind !== "external") throw new InvalidInputError("device", "The external driver registers servers by URL: give the device as { kind: 'external', url }");
    const url = spec.device.url.replace(/\/+$/, "");
    if (!/^https?:\/\/[^\s/]+/.test(url)) throw new InvalidInputError("url", `Not a server URL: ${spec.device.url}`);
    if (this.servers.has(spec.id)) throw new ConflictError(`Replica ${spec.id} is already registered`);
    const u = new URL(url);
    // A name is checked as each connection is made (guardedConnect); an address never changes, so once here.
    const literal = net.isIP(plainAddress(u.hostname)) ? outboundRefusal(u.hostname, defaultPort(u), this.policy) : null;
    if (literal) throw new InvalidInputError("url", refusalSentence(u.host, literal));
    const status: ReplicaStatus = { id: spec.id, state: "loading", reason: null, url, device: spec.device, hostname: u.host, region: spec.device.region, expectedReadyAt: null, inFlight: 0 };
    const dispatcher = new Agent({ connect: guardedConnect(url, this.policy) });
    this.servers.set(spec.id, { spec: spec as Registered["spec"], status, failures: 0, dispatcher });
    this.emit(status);
    this.ensureTimer();
    void this.check(spec.id);
    return status;
  }

  awaitReady(id: string, timeoutMs: number): Promise<ReplicaStatus> {
    const s = this.get(id);
    if (s.status.state === "ready") return Promise.resolve(s.status);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new TimeoutError(`${s.status.url} did not pass a health check within ${timeoutMs} ms: ${s.status.reason ?? "no answer"}`));
      }, timeoutMs);
      const off = this.subscribe((e) => {
        if (e.type !== "replica" || e.replica.id !== id || e.replica.state !== "ready") return;
        clearTimeout(timer);
        off();
        resolve(e.replica);
      });
    });
  }

  async stopReplica(id: string) {
    const s = this.get(id);
    this.servers.delete(id);
    void s.dispatcher.close();
    this.emit({ ...s.status, state: "stopped", reason: "Deregistered: Kule no longer routes to this server (it keeps running; Kule does not manage it)." });
    if (this.servers.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  async replicaHealth(id: string) {
    await this.check(id);
    return this.get(id).status;
  }

  async applyMigLayout(): Promise<void> {
    throw new ConflictError("Kule cannot re-partition GPUs of servers it does not run (external driver).");
  }
  async cordon(): Promise<void> {
    throw new ConflictError("Kule cannot cordon nodes of servers it does not run (external driver).");
  }
  async uncordon(): Promise<void> {
    throw new ConflictError("Kule cannot uncordon nodes of servers it does not run (external driver).");
  }

  subscribe(listener: (e: ClusterEvent) => void): () => void {
    this.events.on("event", listener);
    return () => this.events.off("event", listener);
  }

  close() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const s of this.servers.values()) void s.dispatcher.close();
    this.servers.clear();
  }

  private get(id: string): Registered {
    const s = this.servers.get(id);
    if (!s) throw new NotFoundError("Replica", { message: `No external replica ${id}` });
    return s;
  }
  private emit(status: ReplicaStatus) {
    this.events.emit("event", { type: "replica", replica: { ...status }, at: Date.now() } satisfies ClusterEvent);
  }
  private ensureTimer() {
    this.timer ??= setInterval(() => {
      for (const id of this.servers.keys()) void this.check(id);
    }, this.opts.healthIntervalMs);
    this.timer.unref();
  }

  /** Ready after one passing probe; failed after `failuresBeforeDown` failing checks in a row. */
  private async check(id: string) {
    const s = this.servers.get(id);
    if (!s) return;
    let reason: string | null = null;
    let ok = false;
    for (const path of PROBES) {
      try {
        // undici's request follows no redirect: a 3xx is an answer, not a hop to somewhere else.
        const res = await request(s.status.url + path, { dispatcher: s.dispatcher, signal: AbortSignal.timeout(2000) });
        await res.body.dump();
        const status = res.statusCode;
        if (status >= 200 && status < 300) {
          ok = true;
          break;
        }
        reason = `${path} answered ${status}`;
        if (status !== 404) break; // the server knows the route: its answer is the health
      } catch (e) {
        reason = `no answer from ${s.status.url} (${(e as Error).cause ?? (e as Error).message})`;
        break;
      }
    }
    if (!this.servers.has(id)) return;
    const before = s.status.state;
    if (ok) {
      s.failures = 0;
      s.status = { ...s.status, state: "ready", reason: null };
    } else if (++s.failures >= this.opts.failuresBeforeDown || before === "loading") {
      s.status = { ...s.status, state: before === "loading" && s.failures < this.opts.failuresBeforeDown ? "loading" : "failed", reason };
    }
    if (s.status.state !== before) this.emit(s.status);
  }
}
