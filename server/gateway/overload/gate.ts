import type http from "node:http";
import { RateLimitedError, UnavailableError } from "../../errors.ts";
import { estimatedPromptTokens } from "../../endpoints/request-classes.ts";
import type { GatewayCall } from "../call.ts";
import type { EndpointConfig, GatewayConfig } from "../config.ts";
import { EngineLoad } from "./engine-load.ts";
import type { LimitClass } from "../../shared/limit-classes.ts";
import { FairScheduler, type ShedReason } from "./scheduler.ts";
import { callPriority, PRIORITY_HEADER, queueBudgetMs, type Priority } from "./priority.ts";

/** Tickets one endpoint's queue holds per gateway process; past it the worst-ranked is shed. */
const MAX_QUEUE = 2000;
/** How often queued tickets are looked at (their deadlines, room freed by a raised limit). */
const TICK_MS = 20;
/** Output tokens assumed for a call that sets no max_tokens. */
const DEFAULT_MAX_TOKENS = 256;

export interface OverloadObserver {
  admitted(endpoint: string, priority: Priority, queuedSeconds: number): void;
  shed(endpoint: string, tenant: string, priority: Priority, reason: ShedReason): void;
  served(endpoint: string, tenant: string, weightedTokens: number): void;
}

/** A call let through: what its release needs. */
export interface Admitted {
  /** The endpoint whose queue let it through (a fallback may serve the call in the end). */
  endpoint: EndpointConfig;
  scheduler: FairScheduler;
  tenantId: string;
  cost: number;
  queuedMs: number;
}

const SHED_MESSAGE: Record<ShedReason, (slug: string, p: Priority) => string> = {
  deadline: (slug, p) => `${slug}'s replicas are saturated and ${p} calls ahead of this one would not clear before its deadline: try again after the Retry-After time.`,
  over_share: (slug) => `${slug}'s replicas are saturated and this tenant is asking for more than its share of them: try again after the Retry-After time, or spread the calls out.`,
  queue_full: (slug) => `${slug}'s replicas are saturated and its queue is full: try again after the Retry-After time.`,
};

/**
 * The overload queue of every endpoint (scheduler.ts), in front of replicas whose engines say they
 * are saturated (engine-load.ts): a call either goes straight through (a counter and a compare,
 * while there is room) or waits its turn by class and tenant, and is refused with 429/503 and
 * Retry-After when it cannot make its deadline.
 */
export class OverloadGate {
  readonly engines: EngineLoad;
  private readonly schedulers = new Map<string, FairScheduler>();
  /** The engine's own time to a first token per endpoint (ms, smoothed): an interactive call's budget leaves room for it. */
  private readonly engineTtft = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  /** Told of every queued admission and every refusal (the gateway's metrics: overload/metrics.ts). */
  observer: OverloadObserver | null = null;

  constructor(
    private readonly config: () => GatewayConfig | null,
    opts: { inFlight: (replicaId: string) => number; fetchText: (url: string) => Promise<string | null>; processes: number; everyMs: number; enabled: boolean },
  ) {
    this.engines = new EngineLoad({ ...opts, replicas: () => this.replicas() });
    this.enabled = opts.enabled;
  }

  /** Off, every call goes straight on to the engines' own first-come queues (the benchmark's FIFO baseline). */
  private readonly enabled: boolean;

  /** The schedulers by endpoint id, for the metrics and the queue panel. */
  get queues(): ReadonlyMap<string, FairScheduler> {
    return this.schedulers;
  }

  start() {
    if (this.enabled) this.engines.start();
  }

  stop() {
    this.engines.stop();
    if (this.timer) clearInterval(this.timer);
  }

  /** Lets the call through or holds it; null when the client left meanwhile; throws 429/503 when it is shed. */
  async admit(call: GatewayCall, body: Record<string, unknown>, headers: http.IncomingHttpHeaders, signal: AbortSignal): Promise<Admitted | null> {
    const e = call.endpoint!;
    const key = call.key!;
    const tenant = call.tenant!;
    const scheduler = this.scheduler(e);
    // The hot path while no engine has said it is saturated: a count, no estimate.
    if (scheduler.queued === 0 && this.capacity(e.id) === Infinity) {
      scheduler.pass(tenant.id, tenant.weight);
      return { endpoint: e, scheduler, tenantId: tenant.id, cost: 0, queuedMs: 0 };
    }
    const priority = callPriority(key.priority, headers[PRIORITY_HEADER], key.mayRaisePriority, tenant.priority);
    const maxTokens = Number(body.max_completion_tokens ?? body.max_tokens) || DEFAULT_MAX_TOKENS;
    const cost = estimatedPromptTokens(body) + maxTokens;
    const now = Date.now();
    const budget = queueBudgetMs(priority, e.slo.ttftMs, this.engineTtft.get(e.id) ?? 0);
    // The openai clients send their timeout (seconds): a call its client gives up on first is refused before.
    const clientS = Number(headers["x-stainless-timeout"]);
    const deadline = now + (clientS > 0 ? Math.min(budget, clientS * 1000) : budget);
    const pending = scheduler.submit({ tenantId: tenant.id, weight: tenant.weight, priority, cost, deadline }, now, signal);
    if (pending instanceof Promise) this.ticking();
    const v = pending instanceof Promise ? await pending : pending;
    if (v.admitted) {
      this.observer?.admitted(e.slug, priority, v.queuedMs / 1000);
      return { endpoint: e, scheduler, tenantId: tenant.id, cost, queuedMs: v.queuedMs };
    }
    if (v.reason === "client_closed") return null;
    this.observer?.shed(e.slug, tenant.slug, priority, v.reason);
    call.errorClass = `shed_${v.reason}` satisfies LimitClass;
    const message = SHED_MESSAGE[v.reason](e.slug, priority);
    if (v.status === 429) throw new RateLimitedError(message, { code: "overloaded", retryAfterSeconds: v.retryAfterSeconds });
    throw new UnavailableError(message, { retryAfterSeconds: v.retryAfterSeconds });
  }

  /** The call is over: its tokens correct what it was charged, and its engine time to a first token is learned. */
  release(a: Admitted, call: GatewayCall) {
    const tokens = call.promptTokens + call.completionTokens;
    a.scheduler.release(a.tenantId, a.cost, tokens, Date.now());
    if (tokens > 0) this.observer?.served(a.endpoint.slug, call.tenant!.slug, tokens / call.tenant!.weight);
    if (call.ttftMs !== null && call.status === 200 && call.endpoint === a.endpoint) {
      const id = a.endpoint.id;
      const ms = call.ttftMs - a.queuedMs;
      const was = this.engineTtft.get(id);
      this.engineTtft.set(id, was === undefined ? ms : 0.95 * was + 0.05 * ms);
    }
  }

  private scheduler(e: EndpointConfig): FairScheduler {
    let s = this.schedulers.get(e.id);
    if (!s) this.schedulers.set(e.id, (s = new FairScheduler({ capacity: () => this.capacity(e.id), maxQueue: MAX_QUEUE })));
    return s;
  }

  /** Calls at once the endpoint's serving replicas take: the sum of their learned limits (Infinity while any is unlimited). */
  private capacity(endpointId: string): number {
    const e = this.config()?.endpointsById.get(endpointId);
    if (!e || !this.enabled) return Infinity;
    let n = 0;
    for (const v of e.versions) if (v.weight > 0) for (const r of v.replicas) n += this.engines.limit(r.id);
    return n === 0 ? Infinity : n;
  }

  private *replicas() {
    const cfg = this.config();
    if (!cfg) return;
    for (const e of cfg.endpointsById.values()) for (const v of e.versions) yield* v.replicas;
  }

  /** Ticks while anything is queued, and stops when the queues are empty: an idle gateway does no work for them. */
  private ticking() {
    this.timer ??= setInterval(() => {
      let queued = 0;
      for (const s of this.schedulers.values()) {
        s.tick(Date.now());
        queued += s.queued;
      }
      if (queued === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    }, TICK_MS);
  }
}
