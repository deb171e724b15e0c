/**
 * Where a multi-process gateway's primary sends each new connection, and when a worker lets
 * keep-alive connections go so they come back to a less busy one.
 *
 * Pack, then spread. A process's CPU per call rises as its call rate falls (measured here, one
 * process, alternating rounds: 0.470 ms a call at 1,000 req/s, 0.632 at 500 req/s; its caches
 * go cold between calls and its fixed timers are shared by fewer calls). Dealing connections out
 * round-robin halves every worker's rate, so two workers carried 1,000 req/s at about 1.2× the CPU
 * of one process. Connections therefore go to the first worker with room (event-loop utilisation
 * under `packBelow`), and to the next only when it is busy; a worker far busier than another sheds
 * a share of its keep-alive connections, which clients reopen and the primary places anew.
 */

/** A worker's load: its event loop's busy share (smoothed over its reports), and its open connections. */
export interface WorkerLoad {
  slot: number;
  utilization: number;
  connections: number;
}

export interface PlacementPolicy {
  /** A worker under this utilisation takes new connections before any later slot. 0: spread them evenly. */
  packBelow: number;
  /** A worker over this sheds keep-alive connections while another is under `packBelow`. */
  shedAbove: number;
  /** The share of its connections a worker sheds per report while it is that much busier. */
  shedShare: number;
}

export const DEFAULT_PLACEMENT: PlacementPolicy = { packBelow: 0.5, shedAbove: 0.85, shedShare: 0.1 };

/**
 * Each report moves a worker's utilisation this share of the way (reports every 250 ms: about a
 * second's memory). A stall of the host reads as one busy report; unsmoothed, it made a worker at
 * 0.4 shed connections in the gateway bench, splitting the load (and the CPU saved) for nothing.
 * Smoothed, a jump from 0.4 to 1.0 crosses 0.85 only after about 1.25 s.
 */
export const SMOOTHING = 0.25;

/**
 * A worker sheds only once sheddingPlan has named it on this many reports in a row (2 s), and then
 * waits as long again. New connections already go elsewhere from half busy on; shedding is for a
 * worker that stays saturated with long-lived connections. Quicker, a second-long stall of this
 * shared host (seen in the bench, every target slowed) moved connections for nothing.
 */
export const SHED_AFTER_REPORTS = 8;

/**
 * The slot for a new connection: the lowest slot with room; when none has room, the least busy
 * (fewest connections breaking a tie). Packing off: the fewest connections, as a least-connections
 * balancer would (two idle loops are never exactly as idle, so utilisation would pick one).
 */
export function placeConnection(loads: readonly WorkerLoad[], policy: PlacementPolicy = DEFAULT_PLACEMENT): number | null {
  if (loads.length === 0) return null;
  const bySlot = [...loads].sort((a, b) => a.slot - b.slot);
  const lowest = (before: (a: WorkerLoad, b: WorkerLoad) => boolean) => bySlot.reduce((best, w) => (before(w, best) ? w : best)).slot;
  if (policy.packBelow === 0) return lowest((a, b) => a.connections < b.connections);
  const roomy = bySlot.find((w) => w.utilization < policy.packBelow);
  if (roomy) return roomy.slot;
  return lowest((a, b) => a.utilization < b.utilization || (a.utilization === b.utilization && a.connections < b.connections));
}

/**
 * How many keep-alive connections each busy worker should let go now: a worker over `shedAbove`
 * while another is under `packBelow` closes `shedShare` of its connections (at least one) after
 * their next answer. Reconnecting costs a client one handshake; staying would leave a core idle
 * while the other queues. Packing off (packBelow 0) still sheds toward an idle worker.
 */
export function sheddingPlan(loads: readonly WorkerLoad[], policy: PlacementPolicy = DEFAULT_PLACEMENT): Map<number, number> {
  const plan = new Map<number, number>();
  const idleBelow = Math.max(policy.packBelow, 0.05);
  if (!loads.some((w) => w.utilization < idleBelow)) return plan;
  for (const w of loads) {
    if (w.utilization > policy.shedAbove && w.connections > 1) plan.set(w.slot, Math.max(1, Math.floor(w.connections * policy.shedShare)));
  }
  return plan;
}

/**
 * One new connection in this many goes to the other workers in turn, whatever the loads. A worker
 * that never serves stays cold: its code not yet compiled, its pools unopened. In the gateway bench
 * the first spill onto such a worker (the first worker briefly over half busy as a round began)
 * saturated it for a whole 4 s round, p99 2.4 s. Kept warm by a trickle, it takes a spill as the
 * first one would.
 */
export const TRICKLE_EVERY = 16;

/** The primary's book of its ready workers' loads: where the next connection goes, and who sheds. */
export class WorkerLoads {
  private readonly loads = new Map<number, WorkerLoad>();
  /** Reports in a row that named each worker as one to shed. */
  private readonly hot = new Map<number, number>();
  /** Connections handed to each worker since it became ready. */
  private readonly sent = new Map<number, number>();
  private placed = 0;
  private turn = 0;

  constructor(private readonly policy: PlacementPolicy = DEFAULT_PLACEMENT) {}

  /** A worker in `slot` is ready for connections (a successor starts empty). */
  ready(slot: number) {
    this.loads.set(slot, { slot, utilization: 0, connections: 0 });
    this.sent.set(slot, 0);
  }

  gone(slot: number) {
    this.loads.delete(slot);
    this.hot.delete(slot);
    this.sent.delete(slot);
  }

  /** The slot for a new connection, counted there at once (reports lag it), or null while no worker is ready. */
  place(): number | null {
    let slot = placeConnection([...this.loads.values()], this.policy);
    const others = [...this.loads.keys()].filter((s) => s !== slot).sort((a, b) => a - b);
    // Spreading (packBelow 0) keeps every worker warm already.
    if (this.policy.packBelow > 0 && ++this.placed % TRICKLE_EVERY === 0 && others.length) slot = others[this.turn++ % others.length]!;
    if (slot !== null) {
      this.loads.get(slot)!.connections++;
      this.sent.set(slot, this.sent.get(slot)! + 1);
    }
    return slot;
  }

  /** A handover that failed: the connection never reached the worker. */
  unplace(slot: number) {
    const w = this.loads.get(slot);
    if (!w) return;
    w.connections = Math.max(0, w.connections - 1);
    this.sent.set(slot, this.sent.get(slot)! - 1);
  }

  /**
   * A worker's report: its utilisation, the connections it holds open, and how many handovers it
   * has received (unset: all sent). Handovers still on their way count as its connections too;
   * without them a burst's placements were undone by reports that had not seen them (11 and 9
   * of 20 spread evenly). Returns how many keep-alive connections it should let go now (0: none).
   */
  report(slot: number, utilization: number, open: number, received?: number): number {
    const before = this.loads.get(slot);
    if (!before) return 0;
    const onTheirWay = received === undefined ? 0 : Math.max(0, this.sent.get(slot)! - received);
    this.loads.set(slot, { slot, utilization: before.utilization + SMOOTHING * (utilization - before.utilization), connections: open + onTheirWay });
    const shed = sheddingPlan([...this.loads.values()], this.policy).get(slot) ?? 0;
    const hot = shed ? (this.hot.get(slot) ?? 0) + 1 : 0;
    this.hot.set(slot, hot % SHED_AFTER_REPORTS);
    return hot === SHED_AFTER_REPORTS ? shed : 0;
  }
}
