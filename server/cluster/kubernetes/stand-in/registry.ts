import { randomInt, randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { ApiError, errors, successStatus, type Status } from "./status-error.ts";
import { admit, desiredStateChanged } from "./admission.ts";
import { applyCreateDefaults, applyDefaults } from "./defaults.ts";
import { clone, isRecord, now, type KubeObject } from "./kube-object.ts";
import { apiVersionOf, kindByName, type ResourceKind } from "./resource-kinds.ts";
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from "./selectors.ts";
import type { ObjectStore } from "./object-store.ts";

export interface WriteOptions {
  dryRun?: boolean;
  subresource?: "status";
}

export interface DeleteOptions {
  dryRun?: boolean;
  gracePeriodSeconds?: number;
  propagationPolicy?: "Orphan" | "Background" | "Foreground";
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** Kinds whose DELETE answers with the object rather than a Status (ReturnDeletedObject in their registries). */
const RETURNS_DELETED_OBJECT = new Set(["Pod", "Service", "Namespace"]);
const NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

export function randomSuffix(n = 5): string {
  return Array.from({ length: n }, () => NAME_ALPHABET[randomInt(NAME_ALPHABET.length)]).join("");
}

/**
 * The API server's generic registry: every write, from HTTP or from a controller, goes through
 * here so defaulting, validation, optimistic concurrency, generation, graceful deletion and
 * finalizers behave the same whoever writes.
 */
export class Registry {
  constructor(readonly store: ObjectStore) {}

  get(kind: ResourceKind, namespace: string | undefined, name: string): KubeObject {
    const o = this.store.get(kind, ns(kind, namespace), name);
    if (!o) throw errors.notFound(kind, name);
    return o;
  }

  list(kind: ResourceKind, namespace?: string, selectors: { labelSelector?: string; fieldSelector?: string } = {}, match: (o: KubeObject) => boolean = () => true): KubeObject[] {
    const labels = parseLabelSelector(selectors.labelSelector);
    const fields = parseFieldSelector(selectors.fieldSelector, kind);
    return this.store.list(kind, ns(kind, namespace), (o) => matchesLabels(labels, o.metadata.labels) && matchesFields(fields, o) && match(o));
  }

  create(kind: ResourceKind, namespace: string | undefined, body: unknown, opts: WriteOptions = {}): KubeObject {
    const obj = this.decode(kind, body);
    const namespaceOk = this.checkNamespace(kind, namespace, obj);
    // etcd3's storage refuses this, and the handler passes the error on as a 500.
    if (obj.metadata.resourceVersion) throw errors.internal("resourceVersion should not be set on objects to be created");
    if (!obj.metadata.name && obj.metadata.generateName) {
      do obj.metadata.name = obj.metadata.generateName + randomSuffix();
      while (this.store.get(kind, namespaceOk, obj.metadata.name));
    }
    obj.metadata = {
      ...obj.metadata,
      namespace: namespaceOk,
      uid: randomUUID(),
      creationTimestamp: now(),
      ...(kind.hasGeneration ? { generation: 1 } : {}),
    };
    delete obj.metadata.deletionTimestamp;
    delete obj.metadata.deletionGracePeriodSeconds;
    applyDefaults(obj);
    applyCreateDefaults(obj);
    admit(kind, obj);
    if (this.store.get(kind, namespaceOk, obj.metadata.name!)) throw errors.alreadyExists(kind, obj.metadata.name!);
    return opts.dryRun ? obj : this.store.insert(kind, obj);
  }

  /** PUT: replaces the object, or with `subresource: "status"` only its status. */
  update(kind: ResourceKind, namespace: string | undefined, name: string, body: unknown, opts: WriteOptions = {}): KubeObject {
    const current = this.get(kind, namespace, name);
    const incoming = this.decode(kind, body);
    if (incoming.metadata.name && incoming.metadata.name !== name) {
      throw errors.badRequest(`the name of the object (${incoming.metadata.name}) does not match the name on the URL (${name})`);
    }
    const rv = incoming.metadata.resourceVersion;
    if (rv && rv !== current.metadata.resourceVersion) throw errors.conflict(kind, name);
    if (!rv && kind.custom) {
      throw errors.invalid(`${kind.kind}.${kind.group}`, name, kind.group, kind.kind, [
        { reason: "FieldValueInvalid", message: "Invalid value: 0x0: must be specified for an update", field: "metadata.resourceVersion" },
      ]);
    }
    let next: KubeObject;
    if (opts.subresource === "status") {
      next = { ...clone(current), status: incoming.status };
    } else {
      next = incoming;
      next.metadata = {
        ...incoming.metadata,
        name,
        namespace: current.metadata.namespace,
        uid: current.metadata.uid,
        creationTimestamp: current.metadata.creationTimestamp,
        deletionTimestamp: current.metadata.deletionTimestamp,
        deletionGracePeriodSeconds: current.metadata.deletionGracePeriodSeconds,
        generation: current.metadata.generation,
        managedFields: incoming.metadata.managedFields ?? current.metadata.managedFields,
      };
      if (kind.subresources.includes("status") || kind.kind === "Pod") next.status = current.status;
      applyDefaults(next);
    }
    return this.commitUpdate(kind, current, next, opts);
  }

  /** The last step of every update: validation, generation, no-op detection, finalizer completion. */
  commitUpdate(kind: ResourceKind, current: KubeObject, proposed: KubeObject, opts: WriteOptions = {}): KubeObject {
    // As stored (JSON): fields set to undefined are absent, so a no-op write compares equal.
    const next = JSON.parse(JSON.stringify(proposed)) as KubeObject;
    next.metadata.resourceVersion = current.metadata.resourceVersion;
    admit(kind, next, opts.subresource ? undefined : current);
    if (kind.hasGeneration && desiredStateChanged(next, current)) next.metadata.generation = (current.metadata.generation ?? 1) + 1;
    if (isDeepStrictEqual(next, current)) return current;
    if (opts.dryRun) return next;
    if (next.metadata.deletionTimestamp && !next.metadata.finalizers?.length && !this.awaitsKubelet(next)) return this.store.remove(kind, next);
    return this.store.replace(kind, next, current);
  }

  delete(kind: ResourceKind, namespace: string | undefined, name: string, opts: DeleteOptions = {}): { object: KubeObject | Status; code: number } {
    const current = this.get(kind, namespace, name);
    const pre = opts.preconditions;
    if (pre?.uid && pre.uid !== current.metadata.uid) {
      throw new ApiError({ ...errors.conflict(kind, name).status, message: `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.metadata.uid}` });
    }
    if (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
      throw new ApiError({
        ...errors.conflict(kind, name).status,
        message: `Operation cannot be fulfilled on ${kind.plural} "${name}": the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion}). The object might have been modified`,
      });
    }
    const respond = (o: KubeObject, code = 200) => ({ object: RETURNS_DELETED_OBJECT.has(kind.kind) || o.metadata.deletionTimestamp ? o : successStatus(kind, name, o.metadata.uid), code });
    if (opts.dryRun) return respond(current);
    if (opts.propagationPolicy === "Orphan") this.orphanDependents(current);
    const grace = kind.kind === "Pod" ? this.podGracePeriod(current, opts.gracePeriodSeconds) : 0;
    const mustWait = (current.metadata.finalizers?.length ?? 0) > 0 || grace > 0 || kind.kind === "Namespace";
    if (!mustWait) return respond(this.store.remove(kind, current));
    if (current.metadata.deletionTimestamp && !(kind.kind === "Pod" && grace < (current.metadata.deletionGracePeriodSeconds ?? 0))) {
      return { object: current, code: 200 };
    }
    const next = clone(current);
    next.metadata.deletionTimestamp = new Date(Date.now() + grace * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    next.metadata.deletionGracePeriodSeconds = grace;
    if (kind.kind === "Namespace") next.status = { ...(next.status as object), phase: "Terminating" };
    if (kind.hasGeneration) next.metadata.generation = (current.metadata.generation ?? 1) + 1;
    return { object: this.store.replace(kind, next, current), code: 200 };
  }

  /** Removes a terminating object for good: the kubelet's final delete, the namespace controller's. */
  finalize(kind: ResourceKind, obj: KubeObject): void {
    const current = this.store.get(kind, obj.metadata.namespace, obj.metadata.name!);
    if (current && current.metadata.uid === obj.metadata.uid) this.store.remove(kind, current);
  }

  /** POST pods/<name>/binding: what the scheduler does to place a pod on a node. */
  bind(namespace: string, name: string, body: unknown): Status {
    const kind = kindByName("Pod");
    const pod = this.get(kind, namespace, name);
    const target = isRecord(body) && isRecord(body.target) ? (body.target as { name?: string }) : undefined;
    if (!target?.name) throw errors.invalid("Binding", name, "", "Binding", [{ reason: "FieldValueRequired", message: "Required value", field: "target.name" }]);
    const spec = pod.spec as { nodeName?: string };
    if (spec.nodeName) throw new ApiError({ ...errors.conflict(kind, name).status, message: `Operation cannot be fulfilled on pods/binding "${name}": pod ${name} is already assigned to node "${spec.nodeName}"` });
    if (pod.metadata.deletionTimestamp) throw new ApiError({ ...errors.conflict(kind, name).status, message: `Operation cannot be fulfilled on pods/binding "${name}": pod ${name} is being deleted, cannot be assigned to a host` });
    const next = clone(pod);
    (next.spec as { nodeName?: string }).nodeName = target.name;
    const status = (next.status ??= {}) as { conditions?: { type: string }[] };
    status.conditions = [
      ...(status.conditions ?? []).filter((c) => c.type !== "PodScheduled"),
      { type: "PodScheduled", status: "True", lastProbeTime: null, lastTransitionTime: now() } as { type: string },
    ];
    this.store.replace(kind, next, pod);
    return { ...successStatus(kind, name), details: undefined, code: 201 };
  }

  private decode(kind: ResourceKind, body: unknown): KubeObject {
    if (!isRecord(body)) throw errors.badRequest(`the object provided is unrecognized (must be of type ${kind.kind})`);
    const obj = clone(body) as KubeObject;
    if (obj.kind !== undefined && obj.kind !== kind.kind) throw errors.badRequest(`the object provided is unrecognized (must be of type ${kind.kind}): kind ${String(obj.kind)}`);
    if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersionOf(kind)) {
      throw errors.badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersionOf(kind)})`);
    }
    obj.apiVersion = apiVersionOf(kind);
    obj.kind = kind.kind;
    obj.metadata = isRecord(obj.metadata) ? obj.metadata : {};
    return obj;
  }

  private checkNamespace(kind: ResourceKind, namespace: string | undefined, obj: KubeObject): string | undefined {
    if (!kind.namespaced) return undefined;
    const target = namespace ?? obj.metadata.namespace ?? "default";
    if (obj.metadata.namespace && obj.metadata.namespace !== target) {
      throw errors.badRequest("the namespace of the provided object does not match the namespace sent on the request");
    }
    const nsObj = this.store.get(kindByName("Namespace"), undefined, target);
    if (!nsObj) throw errors.notFound(kindByName("Namespace"), target);
    if (nsObj.metadata.deletionTimestamp) {
      throw errors.forbidden(kind, obj.metadata.name ?? "", `unable to create new content in namespace ${target} because it is being terminated`);
    }
    return target;
  }

  /** A bound, running pod is deleted gracefully; an unbound or finished one goes at once. */
  private podGracePeriod(pod: KubeObject, requested: number | undefined): number {
    const spec = pod.spec as { nodeName?: string; terminationGracePeriodSeconds?: number };
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    if (!spec.nodeName || phase === "Succeeded" || phase === "Failed") return 0;
    return Math.max(0, requested ?? spec.terminationGracePeriodSeconds ?? 30);
  }

  private awaitsKubelet(obj: KubeObject): boolean {
    return obj.kind === "Pod" && (obj.metadata.deletionGracePeriodSeconds ?? 0) > 0;
  }

  private orphanDependents(owner: KubeObject): void {
    for (const kind of ["ReplicaSet", "Pod"].map(kindByName)) {
      for (const dep of this.store.list(kind, owner.metadata.namespace)) {
        const refs = dep.metadata.ownerReferences ?? [];
        if (!refs.some((r) => r.uid === owner.metadata.uid)) continue;
        const next = clone(dep);
        next.metadata.ownerReferences = refs.filter((r) => r.uid !== owner.metadata.uid);
        this.store.replace(kind, next, dep);
      }
    }
  }
}

function ns(kind: ResourceKind, namespace: string | undefined): string | undefined {
  return kind.namespaced ? namespace : undefined;
}
