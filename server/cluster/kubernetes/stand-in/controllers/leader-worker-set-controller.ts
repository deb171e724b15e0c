import { createHash } from "node:crypto";
import type { IPod } from "kubernetes-models/v1/Pod";
import type { IPodTemplateSpec } from "kubernetes-models/v1/PodTemplateSpec";
import type { KubeObject } from "../kube-object.ts";
import type { ClusterApi } from "./cluster-api.ts";
import { WorkQueue, objectKey, splitKey, type Controller } from "./controller.ts";
import { controllerOf, controllerRef, controlledBy, isPodActive, isPodReady, omitZero } from "./workload-helpers.ts";

type Pod = IPod & KubeObject;
interface LeaderWorkerSet extends KubeObject {
  spec?: { replicas?: number; leaderWorkerTemplate?: { size?: number; leaderTemplate?: IPodTemplateSpec; workerTemplate?: IPodTemplateSpec } };
  status?: Record<string, unknown>;
}

const L = {
  name: "leaderworkerset.sigs.k8s.io/name",
  groupIndex: "leaderworkerset.sigs.k8s.io/group-index",
  workerIndex: "leaderworkerset.sigs.k8s.io/worker-index",
  groupKey: "leaderworkerset.sigs.k8s.io/group-key",
};

/**
 * The LeaderWorkerSet controller (kubernetes-sigs/lws), as far as Kule uses it: `replicas`
 * groups of `size` pods, the leader named `<lws>-<group>` and its workers `<lws>-<group>-<index>`,
 * labelled and given `LWS_LEADER_ADDRESS`, `LWS_GROUP_SIZE` and `LWS_WORKER_INDEX` as the real one
 * does; a missing pod is made again, surplus groups go from the highest index, and the status
 * counts groups and the ready ones (every pod ready). Where the real controller keeps the leaders
 * in a StatefulSet and each group's workers in another, these pods belong to the LeaderWorkerSet
 * directly, and no headless Service is made: the names, labels and environment are what pods see.
 */
export class LeaderWorkerSetController implements Controller {
  readonly name = "lws-controller-manager";
  private queue?: WorkQueue;
  private off?: () => void;

  constructor(private readonly onError?: (key: string, e: unknown) => void) {}

  start(api: ClusterApi): void {
    const queue = (this.queue = new WorkQueue((key) => this.sync(api, key), this.onError));
    this.off = api.onChange(["LeaderWorkerSet", "Pod"], (e) => {
      if (e.kind.kind === "LeaderWorkerSet") queue.add(objectKey(e.object.metadata.namespace, e.object.metadata.name!));
      const owner = controllerOf(e.object);
      if (e.kind.kind === "Pod" && owner?.kind === "LeaderWorkerSet") queue.add(objectKey(e.object.metadata.namespace, owner.name));
    });
    for (const lws of api.list("LeaderWorkerSet")) queue.add(objectKey(lws.metadata.namespace, lws.metadata.name!));
  }

  stop(): void {
    this.off?.();
    this.queue?.stop();
  }

  private sync(api: ClusterApi, key: string): void {
    const [namespace, name] = splitKey(key);
    const lws = api.get<LeaderWorkerSet>("LeaderWorkerSet", namespace, name);
    if (!lws || lws.metadata.deletionTimestamp) return;
    const all = () => api.list<Pod>("Pod", { namespace, where: (p) => controlledBy(p, lws) });
    const owned = () => all().filter(isPodActive);
    const replicas = lws.spec?.replicas ?? 1;
    const size = lws.spec?.leaderWorkerTemplate?.size ?? 1;
    // A pod still terminating keeps its name: its replacement waits until it is gone, as a StatefulSet's does.
    const have = new Set(all().map((p) => p.metadata.name));
    for (let g = 0; g < replicas; g++) {
      for (let w = 0; w < size; w++) {
        const pod = w === 0 ? `${name}-${g}` : `${name}-${g}-${w}`;
        if (!have.has(pod)) api.create(this.pod(lws, pod, g, w, size));
      }
    }
    for (const p of owned()) if (Number(p.metadata.labels?.[L.groupIndex]) >= replicas) api.delete("Pod", namespace, p.metadata.name!);
    const groups = new Map<string, Pod[]>();
    for (const p of owned()) groups.set(p.metadata.labels?.[L.groupIndex] ?? "", [...(groups.get(p.metadata.labels?.[L.groupIndex] ?? "") ?? []), p]);
    const ready = [...groups.values()].filter((pods) => pods.length === size && pods.every(isPodReady)).length;
    api.mutate<LeaderWorkerSet>(
      "LeaderWorkerSet",
      namespace,
      name,
      (o) => {
        o.status = omitZero({ ...o.status, replicas: groups.size, readyReplicas: ready, updatedReplicas: groups.size, hpaPodSelector: `${L.name}=${name},${L.workerIndex}=0` }, ["replicas"]);
      },
      { status: true },
    );
  }

  private pod(lws: LeaderWorkerSet, name: string, group: number, worker: number, size: number): Pod {
    const t = lws.spec!.leaderWorkerTemplate!;
    const template = structuredClone((worker === 0 ? t.leaderTemplate : undefined) ?? t.workerTemplate ?? {});
    const ns = lws.metadata.namespace;
    const leader = `${lws.metadata.name}-${group}`;
    const env = [
      { name: "LWS_LEADER_ADDRESS", value: `${leader}.${lws.metadata.name}.${ns}` },
      { name: "LWS_GROUP_SIZE", value: String(size) },
      { name: "LWS_WORKER_INDEX", value: String(worker) },
    ];
    const spec = template.spec ?? { containers: [] };
    for (const c of spec.containers) c.env = [...env, ...(c.env ?? [])];
    const groupKey = createHash("sha1").update(`${ns}/${leader}`).digest("hex");
    return {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name,
        namespace: ns,
        labels: { ...template.metadata?.labels, [L.name]: lws.metadata.name!, [L.groupIndex]: String(group), [L.workerIndex]: String(worker), [L.groupKey]: groupKey },
        ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
        ownerReferences: [controllerRef(lws)],
      },
      spec: { ...spec, hostname: worker === 0 ? leader : name, subdomain: lws.metadata.name },
    } as Pod;
  }
}
