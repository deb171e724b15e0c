/**
 * The gateway's queue in front of an endpoint's saturated replicas: strict priority between the
 * classes (interactive before standard before batch), and between the tenants of one class
 * fairness by tokens served, weighted by plan — start-time fair queueing over tokens, as the
 * Gateway API Inference Extension's flow control proposes. Every queued ticket has a deadline and
 * is shed before it (429 when its tenant is over its weighted share, 503 when it is not): a
 * request is answered or refused, never left to time out. Pure: time comes in as `now`.
 */
import { PRIORITIES, type Priority } from "./priority.ts";

/** Why a queued request was refused (its call-log errorClass is `shed_<reason>`). */
export type ShedReason = "deadline" | "over_share" | "queue_full";

export interface TicketInput {
  tenantId: string;
  /** The tenant's fair-share weight (its plan's). */
  weight: number;
  priority: Priority;
  /** Tokens the call is expected to cost (prompt estimate + max_tokens): charged at admission, corrected at release. */
  cost: number;
  /** When the call must have been admitted by (epoch ms). */
  deadline: number;
}

export type Verdict =
  | { admitted: true; queuedMs: number }
  | { admitted: false; reason: ShedReason; status: 429 | 503; retryAfterSeconds: number; queuedMs: number }
  /** The client went away while its call was queued. */
  | { admitted: false; reason: "client_closed"; status: 499; retryAfterSeconds: 0; queuedMs: number };

export interface Ticket extends TicketInput {
  arrived: number;
  /** Set once the ticket is admitted or shed. */
  verdict: Verdict | null;
  settle: (v: Verdict) => void;
}

interface TenantState {
  /** Weighted tokens served: tokens ÷ weight, the fairness clock. */
  served: number;
  weight: number;
  /** Its queued tickets by class, oldest first. */
  queued: Record<Priority, Ticket[]>;
  waiting: number;
  inFlight: number;
  /** Tokens asked for lately (decaying, half-life DEMAND_HALF_LIFE_MS): who is sending past their share. */
  demand: number;
  demandAt: number;
}

/** How long a tenant's past requests count towards its demand. */
const DEMAND_HALF_LIFE_MS = 10_000;
/** A tenant asking for this much more than its weight's share of the demand is the one shed with 429. */
const OVER_SHARE = 1.2;
/** Admissions the drain rate is measured over. */
const DRAIN_SAMPLE = 64;

export interface SchedulerOptions {
  /** Calls the replicas take at once right now (Infinity: not known to be saturated). */
  capacity: () => number;
  /** Tickets held at most; past it the worst-ranked one is shed. */
  maxQueue: number;
}

export class FairScheduler {
  inFlight = 0;
  queued = 0;
  private readonly tenants = new Map<string, TenantState>();
  /** The last admissions' times: how fast the queue drains, for Retry-After and early shedding. */
  private readonly admits: number[] = [];
  readonly shed: Record<ShedReason, number> = { deadline: 0, over_share: 0, queue_full: 0 };

  constructor(private readonly opts: SchedulerOptions) {}

  /** Queued tickets by class and tenant (the endpoint's queue panel). */
  depth(): { priority: Priority; tenantId: string; queued: number }[] {
    const out: { priority: Priority; tenantId: string; queued: number }[] = [];
    for (const [tenantId, t] of this.tenants) for (const p of PRIORITIES) if (t.queued[p].length) out.push({ priority: p, tenantId, queued: t.queued[p].length });
    return out;
  }

  /** Admits at once while there is room and nobody waits; else queues. A queued ticket settles by its deadline at the latest (with `tick`). */
  submit(input: TicketInput, now: number, signal?: AbortSignal): Verdict | Promise<Verdict> {
    const t = this.tenant(input.tenantId, input.weight);
    this.ask(t, input.cost, now);
    if (this.queued === 0 && this.inFlight < this.opts.capacity()) {
      this.admit(t, input, now);
      return { admitted: true, queuedMs: 0 };
    }
    let settle!: (v: Verdict) => void;
    const promise = new Promise<Verdict>((r) => (settle = r));
    const ticket: Ticket = { ...input, arrived: now, verdict: null, settle };
    this.catchUp(t);
    t.queued[ticket.priority].push(ticket);
    t.waiting++;
    this.queued++;
    if (this.queued > this.opts.maxQueue) this.refuse(this.worst()!, "queue_full", now);
    else if (this.hopeless(ticket, now)) this.refuse(ticket, "deadline", now);
    this.pump(now);
    if (ticket.verdict) return ticket.verdict;
    signal?.addEventListener("abort", () => this.withdraw(ticket), { once: true });
    return promise;
  }

  /** Lets a call through uncharged while the replicas are not known to be limited: counted in flight, charged its tokens at release. */
  pass(tenantId: string, weight: number) {
    const t = this.tenant(tenantId, weight);
    this.inFlight++;
    t.inFlight++;
  }

  /** A call admitted earlier is done: it cost `tokens` in the end, not the `estimated` it was charged. */
  release(tenantId: string, estimated: number, tokens: number, now: number) {
    this.inFlight--;
    const t = this.tenants.get(tenantId);
    if (t) {
      t.inFlight--;
      this.charge(t, tokens - estimated);
    }
    this.pump(now);
  }

  /** Admits what now fits and sheds what is past its deadline; the gate calls it on a timer while tickets wait. */
  tick(now: number) {
    for (const t of this.tenants.values()) for (const p of PRIORITIES) for (const q of [...t.queued[p]]) if (now >= q.deadline) this.refuse(q, "deadline", now);
    this.pump(now);
  }

  private pump(now: number) {
    while (this.queued > 0 && this.inFlight < this.opts.capacity()) {
      const t = this.next()!;
      const ticket = this.take(t, t.queued[PRIORITIES.find((p) => t.queued[p].length)!][0]!);
      this.admit(t, ticket, now);
      ticket.verdict = { admitted: true, queuedMs: now - ticket.arrived };
      ticket.settle(ticket.verdict);
    }
  }

  /** The least-served tenant among those waiting in the highest class anyone waits in. */
  private next(): TenantState | null {
    for (const p of PRIORITIES) {
      let best: TenantState | null = null;
      for (const t of this.tenants.values()) if (t.queued[p].length && (!best || t.served < best.served)) best = t;
      if (best) return best;
    }
    return null;
  }

  private take(t: TenantState, ticket: Ticket): Ticket {
    const q = t.queued[ticket.priority];
    q.splice(q.indexOf(ticket), 1);
    t.waiting--;
    this.queued--;
    return ticket;
  }

  private admit(t: TenantState, input: TicketInput, now: number) {
    this.inFlight++;
    t.inFlight++;
    this.charge(t, input.cost);
    this.admits.push(now);
    if (this.admits.length > DRAIN_SAMPLE) this.admits.shift();
  }

  /** Admissions per second over the last DRAIN_SAMPLE of them; 0 while they span too short a time to tell. */
  get drainPerSecond(): number {
    const span = this.admits.at(-1)! - this.admits[0]!;
    return this.admits.length > 1 && span >= 200 ? ((this.admits.length - 1) * 1000) / span : 0;
  }

  private charge(t: TenantState, tokens: number) {
    t.served += tokens / t.weight;
  }

  private ask(t: TenantState, cost: number, now: number) {
    t.demand = t.demand * 0.5 ** ((now - t.demandAt) / DEMAND_HALF_LIFE_MS) + cost;
    t.demandAt = now;
  }

  /** A tenant that was idle starts level with the least-served busy one: idling banks no credit. */
  private catchUp(t: TenantState) {
    if (t.waiting || t.inFlight) return;
    let floor = Infinity;
    for (const o of this.tenants.values()) if (o !== t && (o.waiting || o.inFlight)) floor = Math.min(floor, o.served);
    if (floor !== Infinity) t.served = Math.max(t.served, floor);
  }

  /** Whether the queue ahead of `ticket` cannot drain before its deadline at the rate it drains now. */
  private hopeless(ticket: Ticket, now: number): boolean {
    const rate = this.drainPerSecond;
    if (rate === 0) return false;
    const rank = PRIORITIES.indexOf(ticket.priority);
    let ahead = 0;
    for (const t of this.tenants.values()) for (let i = 0; i <= rank; i++) ahead += t.queued[PRIORITIES[i]!].length;
    return now + ((ahead - 1) / rate) * 1000 > ticket.deadline;
  }

  /** The ticket to drop when the queue is full: the lowest class's, of its most-served tenant, newest. */
  private worst(): Ticket | null {
    for (const p of [...PRIORITIES].reverse()) {
      let worst: TenantState | null = null;
      for (const t of this.tenants.values()) if (t.queued[p].length && (!worst || t.served > worst.served)) worst = t;
      if (worst) return worst.queued[p].at(-1)!;
    }
    return null;
  }

  /** Whether a tenant asks for more than OVER_SHARE × its weight's share of what the tenants asking lately ask for. */
  private overShare(me: TenantState, now: number): boolean {
    let demand = 0;
    let weights = 0;
    for (const t of this.tenants.values()) {
      const d = t.demand * 0.5 ** ((now - t.demandAt) / DEMAND_HALF_LIFE_MS);
      if (d < 1) continue;
      demand += d;
      weights += t.weight;
    }
    const mine = me.demand * 0.5 ** ((now - me.demandAt) / DEMAND_HALF_LIFE_MS);
    return weights > me.weight && mine / demand > (OVER_SHARE * me.weight) / weights;
  }

  private withdraw(ticket: Ticket) {
    if (ticket.verdict) return;
    this.take(this.tenants.get(ticket.tenantId)!, ticket);
    ticket.verdict = { admitted: false, reason: "client_closed", status: 499, retryAfterSeconds: 0, queuedMs: Date.now() - ticket.arrived };
    ticket.settle(ticket.verdict);
  }

  private refuse(ticket: Ticket, reason: ShedReason, now: number) {
    const t = this.tenants.get(ticket.tenantId)!;
    this.take(t, ticket);
    const over = this.overShare(t, now);
    const why: ShedReason = reason === "deadline" && over ? "over_share" : reason;
    this.shed[why]++;
    const rate = this.drainPerSecond;
    const retryAfterSeconds = Math.max(1, Math.ceil(rate > 0 ? this.queued / rate : 1));
    ticket.verdict = { admitted: false, reason: why, status: over ? 429 : 503, retryAfterSeconds, queuedMs: now - ticket.arrived };
    ticket.settle(ticket.verdict);
  }

  private tenant(id: string, weight: number): TenantState {
    let t = this.tenants.get(id);
    if (!t) this.tenants.set(id, (t = { served: 0, weight, queued: { interactive: [], standard: [], batch: [] }, waiting: 0, inFlight: 0, demand: 0, demandAt: 0 }));
    t.weight = weight;
    return t;
  }
}
