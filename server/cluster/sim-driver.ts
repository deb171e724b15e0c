import type { ClusterDriver, ClusterEvent, ReplicaSpec, ReplicaStatus, Topology } from "./driver.ts";
import type { MigInstanceSpec } from "./mig.ts";
import { followSse } from "./sse.ts";
import { errorFromStatus, UnavailableError } from "../errors.ts";


/** Drives the simulator process over its control API (server/cluster/sim/control-server.ts). */
export class SimDriver implements ClusterDriver {
  readonly kind = "sim" as const;
  readonly capabilities = { startStop: true, mig: true, cordon: true, faults: true };

  constructor(readonly baseUrl: string) {}

  private async call<T>(method: string, path: string, body?: unknown, timeoutMs = 10_000): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        method,
        headers: body === undefined ? undefined : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new UnavailableError(`The cluster simulator does not answer at ${this.baseUrl}. Start it with \`npm run sim\` (npm run demo starts it for you).`);
    }
    const data = (await res.json().catch(() => ({}))) as T & { error?: string };
    // The simulator threw one of Kule's typed errors; its status names which.
    if (!res.ok) throw errorFromStatus(res.status, data.error ?? `simulator answered ${res.status}`);
    return data;
  }

  listTopology() {
    return this.call<Topology>("GET", "/topology");
  }
  listReplicas() {
    return this.call<ReplicaStatus[]>("GET", "/replicas");
  }
  startReplica(spec: ReplicaSpec) {
    return this.call<ReplicaStatus>("POST", "/replicas", spec);
  }
  awaitReady(id: string, timeoutMs: number) {
    return this.call<ReplicaStatus>("POST", `/replicas/${encodeURIComponent(id)}/await-ready?timeoutMs=${timeoutMs}`, undefined, timeoutMs + 5000);
  }
  async stopReplica(id: string, opts: { drainMs?: number } = {}) {
    const drainMs = opts.drainMs ?? 0;
    await this.call("DELETE", `/replicas/${encodeURIComponent(id)}?drainMs=${drainMs}`, undefined, drainMs + 10_000);
  }
  replicaHealth(id: string) {
    return this.call<ReplicaStatus>("GET", `/replicas/${encodeURIComponent(id)}`);
  }
  async applyMigLayout(gpuUuid: string, layout: MigInstanceSpec[]) {
    await this.call("POST", `/gpus/${encodeURIComponent(gpuUuid)}/mig`, { layout });
  }
  async cordon(hostname: string) {
    await this.call("POST", `/nodes/${encodeURIComponent(hostname)}/cordon`);
  }
  async uncordon(hostname: string) {
    await this.call("POST", `/nodes/${encodeURIComponent(hostname)}/uncordon`);
  }

  // Faults (simulator only).
  faults() {
    return this.call<{ versionErrorShare: Record<string, number>; xids: { gpuUuid: string; hostname: string; xid: number }[]; slowReplicas: { id: string; factor: number }[]; downNodes: string[] }>("GET", "/faults");
  }
  async clearFaults() {
    await this.call("DELETE", "/faults");
  }
  async injectFault(fault: SimFault) {
    const { type, ...body } = fault;
    await this.call("POST", `/faults/${type}`, body);
  }

  subscribe(listener: (e: ClusterEvent) => void, onConnect?: () => void): () => void {
    const abort = new AbortController();
    void followSse(`${this.baseUrl}/events`, (data) => listener(JSON.parse(data) as ClusterEvent), abort.signal, onConnect);
    return () => abort.abort();
  }
}

export type SimFault =
  | { type: "kill-replica"; replicaId: string }
  | { type: "gpu-xid"; gpuUuid: string; xid: number }
  | { type: "node-status"; hostname: string; status: "down" | "ready" }
  | { type: "slow-replica"; replicaId: string; factor: number }
  | { type: "version-errors"; versionId: string; share: number };
