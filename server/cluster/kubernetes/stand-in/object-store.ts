import { clone, type KubeObject } from "./kube-object.ts";
import type { ResourceKind } from "./resource-kinds.ts";

export type ChangeType = "ADDED" | "MODIFIED" | "DELETED";

export interface ChangeEvent {
  type: ChangeType;
  kind: ResourceKind;
  /** The object after the change; for DELETED, the last state with the deletion's resourceVersion. */
  object: KubeObject;
  /** The object before the change (MODIFIED and DELETED), so selector watches can tell enter from leave. */
  previous?: KubeObject;
  revision: number;
}

/**
 * What etcd is to the API server: objects by kind and key, one global revision that every write
 * bumps, and a window of recent changes from which watches resume. A watch from a revision older
 * than the window has lost events and must relist, which is what 410 Gone tells it.
 */
export class ObjectStore {
  private readonly objects = new Map<ResourceKind, Map<string, KubeObject>>();
  private readonly log: ChangeEvent[] = [];
  private readonly listeners = new Set<(e: ChangeEvent) => void>();
  private revisionNow = 1;
  /** Revision of the newest change dropped from the window; a watch must start at or after it. */
  private compactedRevision = 0;

  constructor(private readonly eventWindow = 1000) {}

  get revision(): number {
    return this.revisionNow;
  }

  /** The oldest revision a watch can still resume from. */
  get oldestResumable(): number {
    return this.compactedRevision;
  }

  get(kind: ResourceKind, namespace: string | undefined, name: string): KubeObject | undefined {
    const o = this.objects.get(kind)?.get(key(namespace, name));
    return o && clone(o);
  }

  /**
   * Objects in key order (namespace, then name), as etcd's range reads return them. `match` is
   * tried on the stored objects before anything is copied: a selective list of a big collection
   * (the events of one pod among thousands) costs copies of what it returns only.
   */
  list(kind: ResourceKind, namespace?: string, match: (o: KubeObject) => boolean = () => true): KubeObject[] {
    const picked = [...(this.objects.get(kind)?.entries() ?? [])].filter(([, o]) => (namespace === undefined || o.metadata.namespace === namespace) && match(o));
    return picked.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, o]) => clone(o));
  }

  insert(kind: ResourceKind, obj: KubeObject): KubeObject {
    return this.commit("ADDED", kind, obj, undefined);
  }

  replace(kind: ResourceKind, obj: KubeObject, previous: KubeObject): KubeObject {
    return this.commit("MODIFIED", kind, obj, previous);
  }

  remove(kind: ResourceKind, obj: KubeObject): KubeObject {
    return this.commit("DELETED", kind, obj, obj);
  }

  /** Changes after `revision`, or undefined when some of them were compacted away. */
  changesSince(revision: number): ChangeEvent[] | undefined {
    if (revision < this.compactedRevision) return undefined;
    return this.log.filter((e) => e.revision > revision).map((e) => ({ ...e, object: clone(e.object), previous: e.previous && clone(e.previous) }));
  }

  /** Drops the whole change window, as an etcd compaction does: older revisions now answer 410. */
  compact(): void {
    this.compactedRevision = this.revisionNow;
    this.log.length = 0;
  }

  /** Listeners run synchronously inside the write, so watches see changes in commit order. */
  subscribe(listener: (e: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private commit(type: ChangeType, kind: ResourceKind, obj: KubeObject, previous: KubeObject | undefined): KubeObject {
    const revision = ++this.revisionNow;
    const stored = clone(obj);
    stored.metadata.resourceVersion = String(revision);
    let byKey = this.objects.get(kind);
    if (!byKey) this.objects.set(kind, (byKey = new Map()));
    const k = key(stored.metadata.namespace, stored.metadata.name!);
    if (type === "DELETED") byKey.delete(k);
    else byKey.set(k, stored);
    const event: ChangeEvent = { type, kind, object: stored, previous: previous && clone(previous), revision };
    this.log.push(event);
    if (this.log.length > this.eventWindow) this.compactedRevision = this.log.shift()!.revision;
    for (const l of [...this.listeners]) l({ ...event, object: clone(stored), previous: event.previous && clone(event.previous) });
    return clone(stored);
  }
}

function key(namespace: string | undefined, name: string): string {
  return `${namespace ?? ""}/${name}`;
}
