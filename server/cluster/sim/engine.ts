import { ttftMs, tpotMs, kvUsage, type LatencyParams } from "./latency-model.ts";
import { KV_BLOCK_TOKENS } from "./prefix-cache.ts";

export interface Sequence {
  promptTokens: number;
  /** Leading prompt tokens the prefix cache holds already: prefill computes only the rest. */
  cachedTokens?: number;
  /** Hashes of the prompt's full KV blocks (prefix-cache.ts): running sequences sharing a block hold it once. */
  blocks?: readonly string[];
  maxTokens: number;
  /** Called for each generated token index as it is produced (streams only). */
  onToken?: (index: number) => void;
  signal?: AbortSignal;
}

export interface SequenceResult {
  queueMs: number;
  ttftMs: number;
  e2eMs: number;
  tokens: number;
  /** Mean time between output tokens. */
  itlMs: number;
  /** First scheduled → first token (prefill), and first token → end (decode). */
  prefillMs: number;
  decodeMs: number;
  /** Times the engine preempted it to free KV cache. */
  preemptions: number;
  aborted: boolean;
}

/** What the engine tells its metrics as it runs (vLLM observes these per step, not per request). */
export interface EngineObserver {
  /** The time between two successive output tokens of a sequence. */
  interval(ms: number): void;
  preempted(): void;
}

interface Live {
  seq: Sequence;
  enqueuedAt: number;
  startedAt: number;
  firstTokenAt: number;
  lastTokenAt: number;
  generated: number;
  preemptions: number;
  /** When, in the engine's own time, its next token is done; timers firing late do not move it. */
  due: number;
  timer: NodeJS.Timeout | null;
  resolve: (r: SequenceResult) => void;
}

/**
 * A continuous-batching scheduler: up to `maxBatch` sequences decode together, the rest wait in
 * FIFO order and join as others finish. Times come from the latency model, evaluated with the
 * batch as it is at each step, so load shows up in TTFT, per-token time and queueing. When the
 * sequences' KV entries outgrow the cache, the newest one is preempted as vLLM does: it goes
 * back to the head of the queue and recomputes its prompt and output so far when it resumes.
 */
export class BatchingEngine {
  private running = new Set<Live>();
  private waiting: Live[] = [];
  /** KV blocks of running sequences' prompts, by hash, with how many running sequences hold each. */
  private held = new Map<string, number>();
  /** Tokens running sequences hold on their own: prompt tokens past their full blocks, and their output. */
  private ownTokens = 0;
  observer: EngineObserver | null = null;

  constructor(
    public params: LatencyParams,
    private kv: { bytesPerToken: number; capacityBytes: number },
  ) {}

  get runningCount() {
    return this.running.size;
  }
  get waitingCount() {
    return this.waiting.length;
  }
  /**
   * Tokens whose KV entries are held: prompts plus what has been generated so far, a prompt block
   * that several running sequences share counted once — vLLM's kv_cache_usage_perc counts blocks
   * in use, and prefix caching makes sequences with a common prefix point at the same blocks.
   */
  get tokensInFlight() {
    let own = 0;
    for (const l of this.running) own += l.generated;
    return this.held.size * KV_BLOCK_TOKENS + this.ownTokens + own;
  }

  private hold(live: Live, by: 1 | -1) {
    this.running[by === 1 ? "add" : "delete"](live);
    const blocks = live.seq.blocks ?? [];
    this.ownTokens += by * Math.max(0, live.seq.promptTokens - blocks.length * KV_BLOCK_TOKENS);
    for (const b of blocks) {
      const n = (this.held.get(b) ?? 0) + by;
      if (n > 0) this.held.set(b, n);
      else this.held.delete(b);
    }
  }
  get kvCacheUsage() {
    return kvUsage(this.tokensInFlight, this.kv.bytesPerToken, this.kv.capacityBytes);
  }

  submit(seq: Sequence): Promise<SequenceResult> {
    return new Promise((resolve) => {
      const live: Live = { seq, enqueuedAt: performance.now(), startedAt: 0, firstTokenAt: 0, lastTokenAt: 0, generated: 0, preemptions: 0, due: 0, timer: null, resolve };
      if (this.running.size < this.params.maxBatch && this.waiting.length === 0) this.start(live);
      else this.waiting.push(live);
    });
  }

  private start(live: Live) {
    if (!live.startedAt) live.startedAt = performance.now();
    this.hold(live, 1);
    // Prefill computes the uncached prompt tokens; a preempted sequence recomputes its prompt and the tokens it had generated.
    const computed = live.preemptions ? live.seq.promptTokens + live.generated : live.seq.promptTokens - Math.min(live.seq.cachedTokens ?? 0, live.seq.promptTokens);
    if (this.params.scale === 0) return this.runInstantly(live);
    this.schedule(live, performance.now() + ttftMs(this.params, computed, this.running.size - 1));
  }

  /**
   * Tokens are stamped with the time the model says they are done, and each next one is due a
   * step after the last was due: a timer that fires late (Node's are ms-grained, and this machine
   * is shared) delays the delivery, not the engine's clock, so its TTFT and inter-token figures
   * are the latency model's and not the host's.
   */
  private schedule(live: Live, due: number) {
    live.due = due;
    live.timer = setTimeout(() => this.step(live), Math.max(0, due - performance.now()));
  }

  /** With the latency model off (benchmarks), everything happens in one tick. */
  private runInstantly(live: Live) {
    live.firstTokenAt = live.lastTokenAt = performance.now();
    for (let i = 0; i < live.seq.maxTokens; i++) live.seq.onToken?.(i);
    live.generated = live.seq.maxTokens;
    this.finish(live, false);
  }

  private overCapacity() {
    return this.tokensInFlight * this.kv.bytesPerToken > this.kv.capacityBytes;
  }

  /** Frees KV cache by sending the most recently started sequence back to the queue. */
  private preemptNewest(): Live {
    const victim = [...this.running].at(-1)!;
    this.hold(victim, -1);
    if (victim.timer) clearTimeout(victim.timer);
    victim.timer = null;
    victim.preemptions++;
    this.waiting.unshift(victim);
    this.observer?.preempted();
    return victim;
  }

  private step(live: Live) {
    live.timer = null;
    if (live.seq.signal?.aborted) return this.finish(live, true);
    while (this.running.size > 1 && this.overCapacity()) if (this.preemptNewest() === live) return;
    const now = live.due;
    if (live.generated === 0) live.firstTokenAt = now;
    else this.observer?.interval(now - live.lastTokenAt);
    live.lastTokenAt = now;
    live.seq.onToken?.(live.generated);
    live.generated++;
    if (live.generated >= live.seq.maxTokens) return this.finish(live, false);
    this.schedule(live, now + tpotMs(this.params, this.running.size, this.tokensInFlight));
  }

  private finish(live: Live, aborted: boolean) {
    if (this.running.has(live)) this.hold(live, -1);
    // A sequence that ran to its end ends at its last token, in the engine's time.
    const now = aborted || live.generated === 0 ? performance.now() : live.lastTokenAt;
    const first = live.firstTokenAt || now;
    live.resolve({
      queueMs: live.startedAt - live.enqueuedAt,
      ttftMs: first - live.enqueuedAt,
      e2eMs: now - live.enqueuedAt,
      tokens: live.generated,
      itlMs: live.generated > 1 ? (now - live.firstTokenAt) / (live.generated - 1) : 0,
      prefillMs: first - live.startedAt,
      decodeMs: now - first,
      preemptions: live.preemptions,
      aborted,
    });
    const next = this.waiting.shift();
    if (next) this.start(next);
  }
}
