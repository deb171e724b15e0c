import { ttftMs, tpotMs, kvUsage, type LatencyParams } from "./latency-model.ts";

export interface Sequence {
  promptTokens: number;
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
  aborted: boolean;
}

interface Live {
  seq: Sequence;
  enqueuedAt: number;
  startedAt: number;
  firstTokenAt: number;
  generated: number;
  resolve: (r: SequenceResult) => void;
}

/**
 * A continuous-batching scheduler: up to `maxBatch` sequences decode together, the rest wait in
 * FIFO order and join as others finish. Times come from the latency model, evaluated with the
 * batch as it is at each step, so load shows up in TTFT, per-token time and queueing.
 */
export class BatchingEngine {
  private running = new Set<Live>();
  private waiting: Live[] = [];

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
  /** Tokens whose KV entries are held: prompts plus what has been generated so far. */
  get tokensInFlight() {
    let n = 0;
    for (const l of this.running) n += l.seq.promptTokens + l.generated;
    return n;
  }
  get kvCacheUsage() {
    return kvUsage(this.tokensInFlight, this.kv.bytesPerToken, this.kv.capacityBytes);
  }

  submit(seq: Sequence): Promise<SequenceResult> {
    return new Promise((resolve) => {
      const live: Live = { seq, enqueuedAt: performance.now(), startedAt: 0, firstTokenAt: 0, generated: 0, resolve };
      if (this.running.size < this.params.maxBatch) this.start(live);
      else this.waiting.push(live);
    });
  }

  private start(live: Live) {
    live.startedAt = performance.now();
    this.running.add(live);
    const delay = ttftMs(this.params, live.seq.promptTokens, this.running.size - 1);
    if (this.params.scale === 0) return this.runInstantly(live);
    setTimeout(() => this.step(live), delay);
  }

  /** With the latency model off (benchmarks), everything happens in one tick. */
  private runInstantly(live: Live) {
    live.firstTokenAt = performance.now();
    for (let i = 0; i < live.seq.maxTokens; i++) live.seq.onToken?.(i);
    live.generated = live.seq.maxTokens;
    this.finish(live, false);
  }

  private step(live: Live) {
    if (live.seq.signal?.aborted) return this.finish(live, true);
    if (live.generated === 0) live.firstTokenAt = performance.now();
    live.seq.onToken?.(live.generated);
    live.generated++;
    if (live.generated >= live.seq.maxTokens) return this.finish(live, false);
    setTimeout(() => this.step(live), tpotMs(this.params, this.running.size));
  }

  private finish(live: Live, aborted: boolean) {
    this.running.delete(live);
    const now = performance.now();
    live.resolve({
      queueMs: live.startedAt - live.enqueuedAt,
      ttftMs: (live.firstTokenAt || now) - live.enqueuedAt,
      e2eMs: now - live.enqueuedAt,
      tokens: live.generated,
      itlMs: live.generated > 1 ? (now - live.firstTokenAt) / (live.generated - 1) : 0,
      aborted,
    });
    const next = this.waiting.shift();
    if (next) this.start(next);
  }
}
