import { KINDS } from "../resource-kinds.ts";
import type { KubeObject } from "../kube-object.ts";
import type { ClusterApi } from "./cluster-api.ts";
import type { Controller } from "./controller.ts";

/**
 * The garbage collector and the namespace controller: dependents go when their owner does
 * (background propagation, so a deleted Deployment takes its ReplicaSets and Pods), and a
 * terminating namespace is emptied, then removed.
 */
export class GarbageCollector implements Controller {
  readonly name = "garbage-collector";
  private off?: () => void;

  start(api: ClusterApi): void {
    this.off = api.onChange(
      KINDS.map((k) => k.kind),
      (e) => {
        if (e.type === "DELETED") this.collectDependents(api, e.object);
        const ns = e.kind.kind === "Namespace" ? e.object.metadata.name : e.object.metadata.namespace;
        if (ns && e.type !== "ADDED") this.drainNamespace(api, ns);
      },
      this.name,
    );
  }

  stop(): void {
    this.off?.();
  }

  private collectDependents(api: ClusterApi, owner: KubeObject): void {
    const ownedByIt = (o: KubeObject) => (o.metadata.ownerReferences ?? []).some((r) => r.uid === owner.metadata.uid);
    for (const kind of KINDS.filter((k) => k.namespaced)) {
      // Only the owner's own dependents: they go once every owner they name is gone.
      for (const dep of api.list(kind.kind, { namespace: owner.metadata.namespace, where: ownedByIt })) {
        if (dep.metadata.deletionTimestamp) continue;
        const refs = dep.metadata.ownerReferences ?? [];
        if (refs.every((r) => r.uid === owner.metadata.uid || !this.exists(api, r.uid, dep.metadata.namespace))) {
          api.delete(kind.kind, dep.metadata.namespace, dep.metadata.name!, { propagationPolicy: "Background" });
        }
      }
    }
  }

  private exists(api: ClusterApi, uid: string, namespace: string | undefined): boolean {
    return KINDS.some((k) => api.list(k.kind, { ...(k.namespaced ? { namespace } : {}), where: (o) => o.metadata.uid === uid }).length > 0);
  }

  private drainNamespace(api: ClusterApi, name: string): void {
    const ns = api.get("Namespace", undefined, name);
    if (!ns?.metadata.deletionTimestamp) return;
    let remaining = 0;
    for (const kind of KINDS.filter((k) => k.namespaced)) {
      for (const o of api.list(kind.kind, { namespace: name })) {
        remaining++;
        if (!o.metadata.deletionTimestamp) api.delete(kind.kind, name, o.metadata.name!);
      }
    }
    if (remaining === 0) api.finalize(ns);
  }
}
