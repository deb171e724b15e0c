import type { ClusterApi } from "./cluster-api.ts";

/** A control loop the stand-in runs beside its API server. Each is optional and replaceable. */
export interface Controller {
  readonly name: string;
  start(api: ClusterApi): void;
  stop(): void;
}

/**
 * Keys to reconcile, deduplicated and worked off asynchronously; a reconcile that throws is
 * retried after a pause, and `requeueAfter` brings a key back later (for deadlines and backoffs).
 */
export class WorkQueue {
  private readonly pending = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly reconcile: (key: string) => void,
    private readonly onError: (key: string, error: unknown) => void = () => {},
    private readonly retryMs = 50,
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    this.pending.add(key);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.drain());
  }

  requeueAfter(key: string, ms: number): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.add(key);
    }, ms);
    this.timers.add(t);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.pending.clear();
  }

  private drain(): void {
    this.scheduled = false;
    const keys = [...this.pending];
    this.pending.clear();
    for (const key of keys) {
      if (this.stopped) return;
      try {
        this.reconcile(key);
      } catch (e) {
        this.onError(key, e);
        this.requeueAfter(key, this.retryMs);
      }
    }
  }
}

export function objectKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ""}/${name}`;
}

export function splitKey(key: string): [string | undefined, string] {
  const i = key.indexOf("/");
  return [key.slice(0, i) || undefined, key.slice(i + 1)];
}
