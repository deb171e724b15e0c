/**
 * How late a 10 ms tick runs, sample by sample, since the last read: a stall of the loop (a flush,
 * a cut, a reload, GC, or the process waiting for a core) is latency every call in flight pays.
 * Node's monitorEventLoopDelay was tried first and missed single long blocks here (Node 20).
 */
export class LoopDelay {
  private samples: number[] = [];
  private last = performance.now();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly tickMs = 10) {
    this.timer = setInterval(() => {
      const now = performance.now();
      this.samples.push(Math.max(0, now - this.last - this.tickMs));
      this.last = now;
    }, tickMs);
    this.timer.unref();
  }

  /** p99 and max lateness in ms since the last read, and starts again. */
  read(): { p99Ms: number; maxMs: number } {
    const s = this.samples.sort((a, b) => a - b);
    this.samples = [];
    if (!s.length) return { p99Ms: 0, maxMs: 0 };
    return { p99Ms: s[Math.min(s.length - 1, Math.floor(0.99 * s.length))]!, maxMs: s.at(-1)! };
  }

  stop() {
    clearInterval(this.timer);
  }
}
