import type { INode } from "kubernetes-models/v1/Node";
import type { IPod } from "kubernetes-models/v1/Pod";
import { now, type KubeObject } from "../kube-object.ts";
import type { ClusterApi } from "./cluster-api.ts";
import { WorkQueue, objectKey, splitKey, type Controller } from "./controller.ts";
import { filterNode, nodeScore, unschedulableMessage } from "./scheduling-filters.ts";
import { isPodActive, setCondition } from "./workload-helpers.ts";

type Pod = IPod & KubeObject;
type Node = INode & KubeObject;

/**
 * Binds pending pods to nodes as kube-scheduler does, through the binding subresource. A pod that
 * fits nowhere stays Pending with `PodScheduled=False, reason=Unschedulable` and the scheduler's
 * message, plus a FailedScheduling event; it is retried whenever a node changes or a pod leaves.
 */
export class Scheduler implements Controller {
  readonly name = "default-scheduler";
  private queue?: WorkQueue;
  private off?: () => void;

  constructor(private readonly onError?: (key: string, e: unknown) => void) {}

  start(api: ClusterApi): void {
    const queue = (this.queue = new WorkQueue((key) => this.schedule(api, key), this.onError));
    const retryAll = () => {
      for (const p of api.list<Pod>("Pod", { fieldSelector: "spec.nodeName=" })) queue.add(objectKey(p.metadata.namespace, p.metadata.name!));
    };
    this.off = api.onChange(["Pod", "Node"], (e) => {
      if (e.kind.kind === "Node") return retryAll();
      const pod = e.object as Pod;
      if (e.type === "DELETED" || !isPodActive(pod) || pod.metadata.deletionTimestamp) retryAll();
      else if (!pod.spec?.nodeName) queue.add(objectKey(pod.metadata.namespace, pod.metadata.name!));
    });
    retryAll();
  }

  stop(): void {
    this.off?.();
    this.queue?.stop();
  }

  private schedule(api: ClusterApi, key: string): void {
    const [namespace, name] = splitKey(key);
    const pod = api.get<Pod>("Pod", namespace, name);
    if (!pod || pod.spec?.nodeName || pod.metadata.deletionTimestamp) return;
    if ((pod.spec?.schedulerName ?? "default-scheduler") !== "default-scheduler") return;
    // A gated pod waits, as the scheduling queue keeps it, until whoever placed the gates lifts them.
    if (pod.spec?.schedulingGates?.length) return this.gated(api, pod);
    const nodes = api.list<Node>("Node");
    const bound = api.list<Pod>("Pod", { where: (p) => !!(p as Pod).spec?.nodeName && isPodActive(p as Pod) });
    const onNode = (n: Node) => bound.filter((p) => p.spec?.nodeName === n.metadata.name);
    const verdicts = nodes.map((n) => ({ node: n, reasons: filterNode(pod, n, onNode(n)) }));
    const feasible = verdicts.filter((v) => v.reasons.length === 0).map((v) => v.node);
    if (feasible.length > 0) {
      const best = feasible.sort((a, b) => nodeScore(pod, b, onNode(b)) - nodeScore(pod, a, onNode(a)) || a.metadata.name!.localeCompare(b.metadata.name!))[0]!;
      api.bind(namespace!, name, best.metadata.name!);
      api.recordEvent(pod, "Normal", "Scheduled", `Successfully assigned ${namespace}/${name} to ${best.metadata.name}`, "default-scheduler");
      return;
    }
    const message = unschedulableMessage(nodes.length, verdicts.map((v) => v.reasons));
    const condition = pod.status?.conditions?.find((c) => c.type === "PodScheduled");
    if (condition?.status === "False" && condition.message === message) return;
    api.mutate<Pod>(
      "Pod",
      namespace,
      name,
      (p) => {
        const status = (p.status ??= {});
        status.conditions = setCondition(status.conditions as { type: string; status: string }[] | undefined, { type: "PodScheduled", status: "False", reason: "Unschedulable", message, lastProbeTime: null } as { type: string; status: string }, now()) as typeof status.conditions;
      },
      { status: true },
    );
    api.recordEvent(pod, "Warning", "FailedScheduling", message, "default-scheduler");
  }

  private gated(api: ClusterApi, pod: Pod): void {
    if (pod.status?.conditions?.some((c) => c.type === "PodScheduled" && c.reason === "SchedulingGated")) return;
    api.mutate<Pod>(
      "Pod",
      pod.metadata.namespace,
      pod.metadata.name!,
      (p) => {
        const status = (p.status ??= {});
        status.phase ??= "Pending";
        const condition = { type: "PodScheduled", status: "False", reason: "SchedulingGated", message: "Scheduling is blocked due to non-empty scheduling gates", lastProbeTime: null };
        status.conditions = setCondition(status.conditions as { type: string; status: string }[] | undefined, condition as { type: string; status: string }, now()) as typeof status.conditions;
      },
      { status: true },
    );
  }
}
