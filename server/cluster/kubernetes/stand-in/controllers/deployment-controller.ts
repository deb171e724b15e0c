import type { IDeployment } from "kubernetes-models/apps/v1/Deployment";
import type { IReplicaSet } from "kubernetes-models/apps/v1/ReplicaSet";
import { now, type KubeObject } from "../kube-object.ts";
import type { ClusterApi } from "./cluster-api.ts";
import { WorkQueue, objectKey, splitKey, type Controller } from "./controller.ts";
import { controllerOf, controllerRef, controlledBy, omitZero, podTemplateHash, setCondition } from "./workload-helpers.ts";

type Deployment = IDeployment & KubeObject;
type ReplicaSet = IReplicaSet & KubeObject;
type Condition = { type: string; status: string; reason: string; message: string; lastUpdateTime?: string; lastTransitionTime?: string };

const REVISION = "deployment.kubernetes.io/revision";

/**
 * Rolls Deployments out through ReplicaSets named `<deployment>-<pod-template-hash>`, as the real
 * controller does. The rollout is simplified: the new ReplicaSet gets every replica at once and
 * the old ones scale to zero once it is fully available (Recreate: old ones first).
 */
export class DeploymentController implements Controller {
  readonly name = "deployment-controller";
  private queue?: WorkQueue;
  private off?: () => void;

  constructor(private readonly onError?: (key: string, e: unknown) => void) {}

  start(api: ClusterApi): void {
    const queue = (this.queue = new WorkQueue((key) => this.sync(api, key), this.onError));
    this.off = api.onChange(["Deployment", "ReplicaSet"], (e) => {
      if (e.kind.kind === "Deployment") queue.add(objectKey(e.object.metadata.namespace, e.object.metadata.name!));
      const owner = controllerOf(e.object);
      if (e.kind.kind === "ReplicaSet" && owner?.kind === "Deployment") queue.add(objectKey(e.object.metadata.namespace, owner.name));
    });
    for (const d of api.list("Deployment")) queue.add(objectKey(d.metadata.namespace, d.metadata.name!));
  }

  stop(): void {
    this.off?.();
    this.queue?.stop();
  }

  private sync(api: ClusterApi, key: string): void {
    const [namespace, name] = splitKey(key);
    const d = api.get<Deployment>("Deployment", namespace, name);
    if (!d || d.metadata.deletionTimestamp) return;
    const desired = d.spec?.replicas ?? 1;
    const hash = podTemplateHash(d.spec?.template);
    const owned = () => api.list<ReplicaSet>("ReplicaSet", { namespace, where: (rs) => controlledBy(rs, d) });
    let newRs = owned().find((rs) => rs.metadata.labels?.["pod-template-hash"] === hash);
    const created = !newRs;
    if (!newRs) newRs = this.createReplicaSet(api, d, hash, owned());
    const olds = owned().filter((rs) => rs.metadata.uid !== newRs!.metadata.uid);
    const oldPods = olds.reduce((n, rs) => n + (rs.status?.replicas ?? 0) + (rs.spec?.replicas ?? 0), 0);
    const recreate = d.spec?.strategy?.type === "Recreate";
    const newTarget = recreate && oldPods > 0 ? 0 : desired;
    this.scale(api, d, newRs, newTarget);
    const newAvailable = newRs.status?.availableReplicas ?? 0;
    if (recreate || newAvailable >= desired) for (const rs of olds) this.scale(api, d, rs, 0);
    this.writeStatus(api, d, newRs.metadata.name!, created);
  }

  private createReplicaSet(api: ClusterApi, d: Deployment, hash: string, existing: ReplicaSet[]): ReplicaSet {
    const revision = 1 + Math.max(0, ...existing.map((rs) => Number(rs.metadata.annotations?.[REVISION] ?? 0)));
    const template = structuredClone(d.spec!.template);
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, "pod-template-hash": hash } };
    const selector = structuredClone(d.spec!.selector);
    selector.matchLabels = { ...selector.matchLabels, "pod-template-hash": hash };
    const rs = api.create<ReplicaSet>({
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace,
        labels: { ...d.spec!.template.metadata?.labels, "pod-template-hash": hash },
        annotations: { [REVISION]: String(revision), "deployment.kubernetes.io/desired-replicas": String(d.spec?.replicas ?? 1) },
        ownerReferences: [controllerRef(d)],
      },
      spec: { replicas: 0, selector, template },
    } as ReplicaSet);
    api.mutate<Deployment>("Deployment", d.metadata.namespace, d.metadata.name!, (x) => {
      x.metadata.annotations = { ...x.metadata.annotations, [REVISION]: String(revision) };
    });
    return rs;
  }

  private scale(api: ClusterApi, d: Deployment, rs: ReplicaSet, replicas: number): void {
    const from = rs.spec?.replicas ?? 0;
    if (from === replicas) return;
    api.mutate<ReplicaSet>("ReplicaSet", rs.metadata.namespace, rs.metadata.name!, (x) => {
      x.spec!.replicas = replicas;
      x.metadata.annotations = { ...x.metadata.annotations, "deployment.kubernetes.io/desired-replicas": String(d.spec?.replicas ?? 1) };
    });
    const verb = replicas > from ? "up" : "down";
    api.recordEvent(d, "Normal", "ScalingReplicaSet", `Scaled ${verb} replica set ${rs.metadata.name} from ${from} to ${replicas}`, "deployment-controller");
  }

  private writeStatus(api: ClusterApi, d: Deployment, newRsName: string, created: boolean): void {
    const rses = api.list<ReplicaSet>("ReplicaSet", { namespace: d.metadata.namespace, where: (rs) => controlledBy(rs, d) });
    const sum = (f: (rs: ReplicaSet) => number | undefined) => rses.reduce((n, rs) => n + (f(rs) ?? 0), 0);
    const newRs = rses.find((rs) => rs.metadata.name === newRsName);
    const desired = d.spec?.replicas ?? 1;
    const replicas = sum((rs) => rs.status?.replicas);
    const available = sum((rs) => rs.status?.availableReplicas);
    const updated = newRs?.status?.replicas ?? 0;
    const maxUnavailable = d.spec?.strategy?.type === "Recreate" ? 0 : resolvePercent(d.spec?.strategy?.rollingUpdate?.maxUnavailable ?? "25%", desired);
    const complete = updated === desired && replicas === desired && available === desired && (newRs?.status?.observedGeneration ?? 0) >= (newRs?.metadata.generation ?? 0);
    const at = now();
    const deadline = (d.spec?.progressDeadlineSeconds ?? 600) * 1000;
    api.mutate<Deployment>(
      "Deployment",
      d.metadata.namespace,
      d.metadata.name!,
      (x) => {
        const prev = (x.status?.conditions ?? []) as Condition[];
        const oldProgress = prev.find((c) => c.type === "Progressing");
        const counts = { replicas, updatedReplicas: updated, readyReplicas: sum((rs) => rs.status?.readyReplicas), availableReplicas: available };
        const moved = JSON.stringify(counts) !== JSON.stringify(pick(x.status ?? {}, Object.keys(counts)));
        let progress: Condition;
        if (complete) progress = { type: "Progressing", status: "True", reason: "NewReplicaSetAvailable", message: `ReplicaSet "${newRsName}" has successfully progressed.` };
        else if (created) progress = { type: "Progressing", status: "True", reason: "NewReplicaSetCreated", message: `Created new replica set "${newRsName}"` };
        else if (oldProgress?.reason === "ProgressDeadlineExceeded" || (!moved && oldProgress?.lastUpdateTime && Date.parse(oldProgress.lastUpdateTime) + deadline <= Date.now())) {
          progress = { type: "Progressing", status: "False", reason: "ProgressDeadlineExceeded", message: `ReplicaSet "${newRsName}" has timed out progressing.` };
        } else progress = { type: "Progressing", status: "True", reason: "ReplicaSetUpdated", message: `ReplicaSet "${newRsName}" is progressing.` };
        const keepUpdate = oldProgress && oldProgress.reason === progress.reason && !moved;
        progress.lastUpdateTime = keepUpdate ? oldProgress.lastUpdateTime : at;
        const availableOk = available >= desired - maxUnavailable;
        const availability: Condition = availableOk
          ? { type: "Available", status: "True", reason: "MinimumReplicasAvailable", message: "Deployment has minimum availability." }
          : { type: "Available", status: "False", reason: "MinimumReplicasUnavailable", message: "Deployment does not have minimum availability." };
        const oldAvail = prev.find((c) => c.type === "Available");
        availability.lastUpdateTime = oldAvail?.status === availability.status ? oldAvail.lastUpdateTime : at;
        const conditions = setCondition(setCondition(prev, availability, at), progress, at);
        x.status = {
          ...omitZero({ observedGeneration: x.metadata.generation ?? 0, ...counts, unavailableReplicas: Math.max(0, desired - available) }),
          conditions: [conditions.find((c) => c.type === "Available")!, conditions.find((c) => c.type === "Progressing")!],
        };
      },
      { status: true },
    );
    if (!complete) this.queue?.requeueAfter(objectKey(d.metadata.namespace, d.metadata.name!), Math.min(deadline, 60_000) + 10);
  }
}

function resolvePercent(v: string | number, total: number): number {
  return typeof v === "number" ? v : Math.floor((parseInt(v, 10) / 100) * total);
}

function pick(o: object, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, (o as Record<string, unknown>)[k] ?? 0]));
}
