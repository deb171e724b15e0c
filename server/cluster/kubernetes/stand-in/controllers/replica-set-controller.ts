import type { IPod } from "kubernetes-models/v1/Pod";
import type { IReplicaSet } from "kubernetes-models/apps/v1/ReplicaSet";
import type { KubeObject } from "../kube-object.ts";
import type { ClusterApi } from "./cluster-api.ts";
import { WorkQueue, objectKey, splitKey, type Controller } from "./controller.ts";
import { controllerOf, controllerRef, controlledBy, isPodActive, isPodReady, omitZero } from "./workload-helpers.ts";

type ReplicaSet = IReplicaSet & KubeObject;
type Pod = IPod & KubeObject;

/** Keeps `spec.replicas` pods per ReplicaSet: creates what is missing, deletes the surplus, reports counts. */
export class ReplicaSetController implements Controller {
  readonly name = "replicaset-controller";
  private queue?: WorkQueue;
  private off?: () => void;

  constructor(private readonly onError?: (key: string, e: unknown) => void) {}

  start(api: ClusterApi): void {
    const queue = (this.queue = new WorkQueue((key) => this.sync(api, key), this.onError));
    this.off = api.onChange(["ReplicaSet", "Pod"], (e) => {
      if (e.kind.kind === "ReplicaSet") queue.add(objectKey(e.object.metadata.namespace, e.object.metadata.name!));
      const owner = controllerOf(e.object);
      if (e.kind.kind === "Pod" && owner?.kind === "ReplicaSet") queue.add(objectKey(e.object.metadata.namespace, owner.name));
    });
    for (const rs of api.list("ReplicaSet")) queue.add(objectKey(rs.metadata.namespace, rs.metadata.name!));
  }

  stop(): void {
    this.off?.();
    this.queue?.stop();
  }

  private sync(api: ClusterApi, key: string): void {
    const [namespace, name] = splitKey(key);
    const rs = api.get<ReplicaSet>("ReplicaSet", namespace, name);
    if (!rs || rs.metadata.deletionTimestamp) return;
    const owned = () => api.list<Pod>("Pod", { namespace, where: (p) => controlledBy(p, rs) });
    const active = owned().filter(isPodActive);
    const desired = rs.spec?.replicas ?? 1;
    for (let i = active.length; i < desired; i++) {
      const template = rs.spec?.template ?? {};
      api.create({
        apiVersion: "v1",
        kind: "Pod",
        metadata: {
          generateName: `${name}-`,
          namespace,
          labels: { ...template.metadata?.labels },
          ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
          ownerReferences: [controllerRef(rs)],
        },
        spec: structuredClone(template.spec),
      });
    }
    for (const pod of rankForDeletion(active).slice(0, Math.max(0, active.length - desired))) {
      api.delete("Pod", namespace, pod.metadata.name!);
    }
    const now = owned().filter(isPodActive);
    const ready = now.filter(isPodReady).length;
    api.mutate<ReplicaSet>(
      "ReplicaSet",
      namespace,
      name,
      (r) => {
        r.status = omitZero(
          { ...r.status, replicas: now.length, fullyLabeledReplicas: now.length, readyReplicas: ready, availableReplicas: ready, observedGeneration: r.metadata.generation },
          ["replicas"],
        );
      },
      { status: true },
    );
  }
}

const DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";

/**
 * The ReplicaSet controller's deletion order: unscheduled, then pending, then not ready, then the
 * lower `pod-deletion-cost` annotation, then newest.
 */
function rankForDeletion(pods: Pod[]): Pod[] {
  const score = (p: Pod) => [p.spec?.nodeName ? 1 : 0, p.status?.phase === "Pending" ? 0 : 1, isPodReady(p) ? 1 : 0, Number(p.metadata.annotations?.[DELETION_COST] ?? 0) || 0];
  return [...pods].sort((a, b) => {
    const [sa, sb] = [score(a), score(b)];
    for (let i = 0; i < sa.length; i++) if (sa[i] !== sb[i]) return sa[i]! - sb[i]!;
    return (b.metadata.creationTimestamp ?? "").localeCompare(a.metadata.creationTimestamp ?? "");
  });
}
