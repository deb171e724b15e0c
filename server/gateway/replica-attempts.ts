import { UnavailableError, UpstreamError } from "../errors.ts";
import type { GatewayCall } from "./call.ts";
import type { ReplicaConfig } from "./config.ts";
import type { GenAiMetrics } from "./genai-metrics.ts";
import type { ReplicaHealth } from "./replica-health.ts";
import { replicaForCall } from "./replica-choice.ts";
import type { AttemptSpan } from "./tracing.ts";

export interface AttemptDeps {
  health: ReplicaHealth;
  /** The GenAI client metrics of each attempt (genai-metrics.ts), when metrics are on. */
  genAi?: GenAiMetrics | null;
}

/** What an attempt returns when its replica answered 503 the first time: nothing reached the client, so another replica is tried. */
export const RETRY: unique symbol = Symbol("retry");

/**
 * One try of a call at one replica. `ended` closes its share of the call's time (the gateway's own
 * time is the rest: kule_gateway_overhead_seconds), its span and its GenAI client metric; it runs
 * once, at the end of the replica's answer or its failure, whichever the caller sees first.
 */
export class ReplicaAttempt {
  readonly traceparent: string | null;
  private readonly sent = performance.now();
  private readonly span: AttemptSpan | null;
  private done = false;

  constructor(
    private readonly call: GatewayCall,
    readonly replica: ReplicaConfig,
    private readonly first: boolean,
    private readonly genAi: GenAiMetrics | null,
  ) {
    this.span = call.trace?.attempt(replica, call.endpoint!.slug) ?? null;
    this.traceparent = this.span?.traceparent ?? null;
  }

  /** Whether the replica's answer `status` is one to try elsewhere (a 503, on the first try only). */
  retries(status: number): boolean {
    return status === 503 && this.first;
  }

  ended(status: number, error?: string) {
    if (this.done) return;
    this.done = true;
    const ms = performance.now() - this.sent;
    this.call.upstreamMs += ms;
    this.span?.end(status, error);
    this.genAi?.attempt(this.call, this.replica, ms / 1000, status, error);
  }
}

/**
 * The one replica-attempt loop of the gateway, HTTP and gRPC alike: a replica of the call's
 * version by the endpoint's replica choice (KVKK applied), and once more elsewhere when the first
 * failed before answering (a refused or reset connection: `attempt` throws) or answered 503
 * (`attempt` returns RETRY). Replica health and outstanding counts are kept here; `attempt` sends
 * the call and marks the answer's own health.
 */
export async function attemptReplicas<T>(deps: AttemptDeps, call: GatewayCall, prefix: number | null, attempt: (a: ReplicaAttempt) => Promise<T | typeof RETRY>): Promise<T> {
  const e = call.endpoint!;
  const tried = new Set<string>();
  for (let n = 0; n < 2; n++) {
    const replica = replicaForCall(deps.health, call, call.version!, prefix, tried);
    if (!replica) break;
    deps.health.begin(replica.id);
    const a = new ReplicaAttempt(call, replica, n === 0, deps.genAi ?? null);
    try {
      const result = await attempt(a);
      if (result !== RETRY) return result;
      deps.health.failed(replica.id);
    } catch (err) {
      a.ended(0, (err as Error).name || "error");
      deps.health.failed(replica.id);
      if (n === 1) throw new UpstreamError(`The replica serving ${e.slug} failed: ${(err as Error).message}`);
    } finally {
      a.ended(0);
      deps.health.end(replica.id);
    }
  }
  call.errorClass = "no_ready_replica";
  throw new UnavailableError(`No replica of ${e.slug} could take the request. Try again shortly.`);
}
