import type { ServerResponse } from "node:http";
import { errors, type Status } from "./status-error.ts";
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from "./selectors.ts";
import { apiVersionOf, type ResourceKind } from "./resource-kinds.ts";
import type { KubeObject } from "./kube-object.ts";
import type { ChangeEvent, ObjectStore } from "./object-store.ts";

export interface WatchRequest {
  kind: ResourceKind;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  allowWatchBookmarks: boolean;
  sendInitialEvents: boolean;
  timeoutSeconds?: number;
}

export interface WatchHubOptions {
  /** How often an open watch that asked for bookmarks gets one (the real server: about a minute). */
  bookmarkIntervalMs: number;
  /**
   * How a watch from a compacted resourceVersion is refused: an HTTP 410 Status, or (what the
   * watch cache in recent servers does) a 200 whose only event is an ERROR carrying the 410.
   */
  expiredWatchAs: "http-status" | "error-event";
}

interface OpenWatch {
  res: ServerResponse;
  close(): void;
  lastRevision: number;
}

type EventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

/** Serves watches as the API server streams them: one JSON event per line on a chunked 200. */
export class WatchHub {
  private readonly open = new Set<OpenWatch>();

  constructor(
    private readonly store: ObjectStore,
    private readonly options: WatchHubOptions,
  ) {}

  get openCount(): number {
    return this.open.size;
  }

  serve(res: ServerResponse, w: WatchRequest): void {
    const labels = parseLabelSelector(w.labelSelector);
    const fields = parseFieldSelector(w.fieldSelector, w.kind);
    const matches = (o: KubeObject) => (w.namespace === undefined || o.metadata.namespace === w.namespace) && matchesLabels(labels, o.metadata.labels) && matchesFields(fields, o);

    const rv = w.resourceVersion;
    if (rv !== undefined && rv !== "" && !/^\d+$/.test(rv)) throw errors.badRequest(`Invalid value: "${rv}": strconv.ParseUint: parsing "${rv}": invalid syntax`);
    const fromStart = rv === undefined || rv === "" || rv === "0";
    const backlog = fromStart ? [] : this.store.changesSince(Number(rv));
    const expired = !fromStart && backlog === undefined;
    const expiredStatus = () => errors.expired(`too old resource version: ${rv} (${this.store.oldestResumable})`).status;
    if (expired && this.options.expiredWatchAs === "http-status") throw errors.expired(expiredStatus().message!);

    res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-cache, private", "Transfer-Encoding": "chunked" });
    res.flushHeaders();
    const write = (type: EventType, object: unknown) => res.write(JSON.stringify({ type, object }) + "\n");
    if (expired) {
      write("ERROR", expiredStatus());
      res.end();
      return;
    }

    const watch: OpenWatch = { res, lastRevision: fromStart ? this.store.revision : Number(rv), close: () => {} };
    const bookmark = (annotations?: Record<string, string>) =>
      write("BOOKMARK", { kind: w.kind.kind, apiVersion: apiVersionOf(w.kind), metadata: { resourceVersion: String(this.store.revision), ...(annotations ? { annotations } : {}) } });

    if (fromStart) {
      // No resourceVersion: the current state as synthetic ADDED events, then the changes after it.
      for (const o of this.store.list(w.kind, w.kind.namespaced ? w.namespace : undefined)) if (matches(o)) write("ADDED", o);
      if (w.sendInitialEvents && w.allowWatchBookmarks) bookmark({ "k8s.io/initial-events-end": "true" });
    }
    const deliver = (e: ChangeEvent) => {
      if (e.kind !== w.kind) return;
      const now = e.type !== "DELETED" && matches(e.object);
      const before = e.previous !== undefined && matches(e.previous);
      watch.lastRevision = e.revision;
      if (e.type === "ADDED" && now) write("ADDED", e.object);
      else if (e.type === "MODIFIED" && now) write(before ? "MODIFIED" : "ADDED", e.object);
      else if (e.type === "MODIFIED" && before) write("DELETED", e.object);
      else if (e.type === "DELETED" && before) write("DELETED", e.object);
    };
    for (const e of backlog ?? []) deliver(e);
    const unsubscribe = this.store.subscribe(deliver);
    const timers: NodeJS.Timeout[] = [];
    if (w.allowWatchBookmarks) timers.push(setInterval(() => bookmark(), this.options.bookmarkIntervalMs));
    if (w.timeoutSeconds && w.timeoutSeconds > 0) timers.push(setTimeout(() => watch.close(), w.timeoutSeconds * 1000));
    watch.close = () => {
      if (!this.open.delete(watch)) return;
      unsubscribe();
      for (const t of timers) clearTimeout(t);
      if (!res.writableEnded) res.end();
    };
    this.open.add(watch);
    // The request body was read before this; only the response's close means the client left.
    res.on("close", watch.close);
  }

  /**
   * Ends every open watch with an ERROR event carrying 410 Expired, as the API server does when a
   * watcher fell behind the window it keeps: clients must relist.
   */
  expireAll(): void {
    for (const watch of [...this.open]) {
      const status: Status = errors.expired(`too old resource version: ${watch.lastRevision} (${this.store.revision})`).status;
      watch.res.write(JSON.stringify({ type: "ERROR", object: status }) + "\n");
      watch.close();
    }
  }

  closeAll(): void {
    for (const watch of [...this.open]) watch.close();
  }
}
