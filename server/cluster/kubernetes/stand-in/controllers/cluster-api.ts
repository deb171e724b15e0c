import { clone, now, type KubeObject } from "../kube-object.ts";
import { kindByName } from "../resource-kinds.ts";
import { ApiError } from "../status-error.ts";
import type { ChangeEvent } from "../object-store.ts";
import type { DeleteOptions, Registry } from "../registry.ts";

/**
 * How controllers, the kubelet and the MIG manager talk to the stand-in: in-process, but through
 * the same registry as HTTP clients, so their writes are validated, versioned and watched alike.
 * Calls are synchronous; change notifications arrive asynchronously (see `onChange`).
 */
export class ClusterApi {
  constructor(
    readonly registry: Registry,
    private readonly onError: (source: string, error: unknown) => void = () => {},
  ) {}

  /** Where controllers report what went wrong outside a request (collected in `StandIn.controllerErrors`). */
  reportError(source: string, error: unknown): void {
    this.onError(source, error);
  }

  get<T extends object = KubeObject>(kind: string, namespace: string | undefined, name: string): T | undefined {
    return this.registry.store.get(kindByName(kind), namespace, name) as T | undefined;
  }

  /** Objects of a kind; `where` is tried before they are copied, so a narrow list of a big collection stays cheap. */
  list<T extends object = KubeObject>(kind: string, opts: { namespace?: string; labelSelector?: string; fieldSelector?: string; where?: (o: KubeObject) => boolean } = {}): T[] {
    return this.registry.list(kindByName(kind), opts.namespace, opts, opts.where) as unknown as T[];
  }

  create<T extends object>(obj: T): T {
    const o = obj as unknown as KubeObject;
    return this.registry.create(kindByName(o.kind), o.metadata.namespace, o) as unknown as T;
  }

  /**
   * Read-modify-write of one object (its status with `status: true`), retried on conflict as
   * controllers do. Returns undefined when the object is gone.
   */
  mutate<T extends object = KubeObject>(kind: string, namespace: string | undefined, name: string, change: (obj: T) => void, opts: { status?: boolean } = {}): T | undefined {
    const k = kindByName(kind);
    for (let attempt = 0; ; attempt++) {
      const current = this.registry.store.get(k, namespace, name);
      if (!current) return undefined;
      const next = clone(current);
      change(next as unknown as T);
      try {
        return this.registry.update(k, namespace, name, next, { subresource: opts.status ? "status" : undefined }) as unknown as T;
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 409) || attempt > 3) throw e;
      }
    }
  }

  delete(kind: string, namespace: string | undefined, name: string, opts: DeleteOptions = {}): void {
    try {
      this.registry.delete(kindByName(kind), namespace, name, opts);
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 404)) throw e;
    }
  }

  /** Removes an object whose graceful deletion has finished (the kubelet's last word on a pod). */
  finalize(obj: KubeObject): void {
    this.registry.finalize(kindByName(obj.kind), obj);
  }

  bind(namespace: string, name: string, nodeName: string): void {
    this.registry.bind(namespace, name, { target: { kind: "Node", name: nodeName } });
  }

  /**
   * Changes to the given kinds, delivered after the write that made them has returned, so a
   * listener that writes does not reorder what other listeners (watches) see.
   */
  onChange(kinds: string[], listener: (e: ChangeEvent) => void, source = "watch-listener"): () => void {
    const wanted = new Set(kinds);
    let active = true;
    const deliver = (e: ChangeEvent) => {
      if (!active) return;
      try {
        listener(e);
      } catch (err) {
        this.reportError(source, err);
      }
    };
    const off = this.registry.store.subscribe((e) => {
      if (wanted.has(e.kind.kind)) setImmediate(deliver, e);
    });
    return () => {
      active = false;
      off();
    };
  }

  /**
   * Records a core/v1 Event about `about`, folding repeats into `count` as the event recorder
   * does, so `kubectl describe`-style readers see what the real components report.
   */
  recordEvent(about: KubeObject, type: "Normal" | "Warning", reason: string, message: string, component: string, host?: string): void {
    const namespace = about.metadata.namespace ?? "default";
    const uid = about.metadata.uid;
    const same = this.list<KubeObject & { reason: string; message: string; count: number }>("Event", {
      namespace,
      fieldSelector: `involvedObject.uid=${uid},reason=${reason}`,
    }).find((e) => e.message === message);
    const at = now();
    if (same) {
      this.mutate<KubeObject & { count: number; lastTimestamp: string }>("Event", namespace, same.metadata.name!, (e) => {
        e.count = (e.count ?? 1) + 1;
        e.lastTimestamp = at;
      });
      return;
    }
    this.create({
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: `${about.metadata.name}.${(Date.now() * 1e6 + Math.floor(Math.random() * 1e6)).toString(16)}`, namespace },
      involvedObject: { kind: about.kind, namespace: about.metadata.namespace, name: about.metadata.name, uid, apiVersion: about.apiVersion, resourceVersion: about.metadata.resourceVersion },
      reason,
      message,
      source: { component, ...(host ? { host } : {}) },
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: component,
      reportingInstance: host ?? "",
    });
  }
}
