import type { KubeClient } from "./kube-client.ts";
import type { KubeObj } from "./kube-types.ts";

export type ChangeType = "ADDED" | "MODIFIED" | "DELETED";

export interface ReflectorOptions<T extends KubeObj> {
  client: KubeClient;
  apiVersion: string;
  kind: string;
  /** The collection's URL path, e.g. /api/v1/namespaces/kule/pods, for watches. */
  path: string;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  onChange(type: ChangeType, obj: T, previous: T | undefined): void;
  /** After a watch broke on an error and the reflector is in sync again (relisted or resumed). */
  onReconnect?(): void;
  /** How long the server keeps one watch open before the reflector opens the next. */
  watchTimeoutSeconds?: number;
  maxBackoffMs?: number;
}

const keyOf = (o: KubeObj) => `${o.metadata?.namespace ?? ""}/${o.metadata?.name ?? ""}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * LIST once, then WATCH from the list's resourceVersion, with bookmarks keeping that version
 * fresh on quiet collections; relists when the server answers 410 Gone (as an HTTP status or as
 * an ERROR event); on a broken connection it backs off (0.2 s doubling to 10 s) and lists again
 * (whatever happened while it was away is then in the list), reporting `onReconnect` once it is
 * back in sync. Keeps the objects in a cache and reports each change, relists included, as
 * ADDED/MODIFIED/DELETED against it.
 */
export class Reflector<T extends KubeObj> {
  readonly cache = new Map<string, T>();
  resourceVersion = "";
  relists = 0;
  private stopped = false;
  private abort: AbortController | null = null;
  private syncedOnce!: () => void;
  readonly synced = new Promise<void>((r) => (this.syncedOnce = r));
  private backoffMs = 0;
  /** Set while the connection is broken, until the next successful list. */
  broken = false;

  constructor(private readonly o: ReflectorOptions<T>) {}

  start(): this {
    void this.run();
    return this;
  }

  stop(): void {
    this.stopped = true;
    this.abort?.abort();
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.cache.get(`${namespace ?? ""}/${name}`);
  }

  private async run(): Promise<void> {
    let needList = true;
    while (!this.stopped) {
      try {
        if (needList) {
          await this.list();
          needList = false;
        }
        const outcome = await this.watchOnce();
        if (outcome === "expired") {
          needList = true;
          this.relists++;
        }
      } catch {
        if (this.stopped) return;
        this.broken = true;
        needList = true;
        this.backoffMs = Math.min(this.o.maxBackoffMs ?? 10_000, Math.max(200, this.backoffMs * 2));
        await sleep(this.backoffMs);
      }
    }
  }

  private async list(): Promise<void> {
    const { items, resourceVersion } = await this.o.client.list<T>(this.o.apiVersion, this.o.kind, this.o);
    const seen = new Set<string>();
    for (const item of items) {
      const k = keyOf(item);
      seen.add(k);
      const previous = this.cache.get(k);
      this.cache.set(k, item);
      if (!previous) this.o.onChange("ADDED", item, undefined);
      else if (previous.metadata?.resourceVersion !== item.metadata?.resourceVersion) this.o.onChange("MODIFIED", item, previous);
    }
    for (const [k, gone] of [...this.cache]) {
      if (seen.has(k)) continue;
      this.cache.delete(k);
      this.o.onChange("DELETED", gone, gone);
    }
    this.resourceVersion = resourceVersion;
    this.connected();
    this.syncedOnce();
  }

  private connected(): void {
    this.backoffMs = 0;
    if (!this.broken) return;
    this.broken = false;
    this.o.onReconnect?.();
  }

  /** One watch: "expired" when the server says the version is too old, "ended" when it closed normally; throws when the connection failed. */
  private watchOnce(): Promise<"expired" | "ended"> {
    return new Promise((resolve, reject) => {
      let expired = false;
      const onEvent = (type: string, obj: T & { code?: number }) => {
        if (type === "ERROR") {
          if (obj.code === 410) expired = true;
          return;
        }
        const rv = obj.metadata?.resourceVersion;
        if (rv) this.resourceVersion = rv;
        if (type === "BOOKMARK") return;
        const k = keyOf(obj);
        const previous = this.cache.get(k);
        if (type === "DELETED") this.cache.delete(k);
        else this.cache.set(k, obj);
        this.o.onChange(type === "DELETED" ? "DELETED" : previous ? "MODIFIED" : "ADDED", obj, previous);
      };
      const done = (err: unknown) => {
        this.abort = null;
        const status = (err as { statusCode?: number } | null)?.statusCode;
        if (expired || status === 410) resolve("expired");
        else if (err && !this.stopped && (err as Error).name !== "AbortError") reject(err);
        else resolve("ended");
      };
      const timeout = (this.o.watchTimeoutSeconds ?? 240) + Math.floor(Math.random() * 30);
      const params = { resourceVersion: this.resourceVersion, allowWatchBookmarks: true, timeoutSeconds: timeout, labelSelector: this.o.labelSelector, fieldSelector: this.o.fieldSelector };
      this.o.client.requests++;
      this.o.client.watch.watch(this.o.path, params, onEvent, done).then(
        (controller) => {
          if (this.abort === null && controller.signal.aborted) return;
          this.abort = controller;
          if (this.stopped) controller.abort();
        },
        (e: unknown) => reject(e),
      );
    });
  }
}
