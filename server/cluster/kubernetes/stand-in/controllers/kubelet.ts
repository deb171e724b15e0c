import type { IPod } from "kubernetes-models/v1/Pod";
import type { IIoK8sApiCoreV1PodStatus } from "kubernetes-models/v1/PodStatus";
import type { KubeObject } from "../kube-object.ts";
import type { ClusterApi } from "./cluster-api.ts";
import type { Controller } from "./controller.ts";

export type Pod = IPod & KubeObject;
export type PodStatus = IIoK8sApiCoreV1PodStatus;

/** What a kubelet may do to the pod it runs: report status and events, as the real one does. */
export interface PodStatusWriter {
  /** The pod as stored now, or undefined once it is gone (or replaced by a pod of the same name). */
  current(): Pod | undefined;
  /**
   * Rewrites the pod's status through the status subresource. `change` gets a copy of the stored
   * status and returns the new one (or edits it in place). False when the pod is gone.
   */
  update(change: (status: PodStatus) => PodStatus | void): boolean;
  /** Records an Event about the pod from component "kubelet" on the pod's node. */
  event(type: "Normal" | "Warning", reason: string, message: string): void;
}

/**
 * The node agent's side of a pod's life. The stand-in calls it; an implementation (the built-in
 * SimpleKubelet for tests, Kule's simulator later) runs containers and reports their states.
 */
export interface Kubelet {
  /** The scheduler bound `pod` to `pod.spec.nodeName`: start its containers. */
  podBound(pod: Pod, status: PodStatusWriter): void;
  /**
   * The pod was deleted with a grace period: stop its containers within `gracePeriodSeconds`.
   * When the promise settles (or the grace period runs out) the pod is removed from the API.
   */
  podTerminating(pod: Pod, gracePeriodSeconds: number, status: PodStatusWriter): Promise<void>;
  /** The pod is gone from the API (terminated, force-deleted, or never started): forget it. */
  podRemoved(pod: Pod): void;
}

/**
 * Drives a Kubelet from the API: hands it bound pods, tells it about graceful deletions, and
 * removes a terminating pod once the kubelet is done or its grace period has passed.
 */
export class KubeletHost implements Controller {
  readonly name = "kubelet-host";
  private readonly started = new Set<string>();
  private readonly stopping = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private off?: () => void;

  constructor(readonly kubelet: Kubelet) {}

  start(api: ClusterApi): void {
    this.off = api.onChange(
      ["Pod"],
      (e) => {
        const pod = e.object as Pod;
        const uid = pod.metadata.uid!;
        if (e.type === "DELETED") {
          if (this.started.delete(uid) || this.stopping.delete(uid)) this.kubelet.podRemoved(pod);
          return;
        }
        this.observe(api, pod);
      },
      this.name,
    );
    for (const pod of api.list<Pod>("Pod")) this.observe(api, pod);
  }

  stop(): void {
    this.off?.();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private observe(api: ClusterApi, pod: Pod): void {
    const uid = pod.metadata.uid!;
    // Events arrive after the fact: act on the pod as it is now, if it is still this pod.
    const live = api.get<Pod>("Pod", pod.metadata.namespace, pod.metadata.name!);
    if (!live || live.metadata.uid !== uid || !live.spec?.nodeName) return;
    if (!live.metadata.deletionTimestamp) {
      if (this.started.has(uid)) return;
      this.started.add(uid);
      this.kubelet.podBound(live, this.writer(api, live));
      return;
    }
    if (this.stopping.has(uid)) return;
    this.stopping.add(uid);
    const grace = live.metadata.deletionGracePeriodSeconds ?? 0;
    const finish = () => {
      clearTimeout(deadline);
      this.timers.delete(deadline);
      api.finalize(live);
    };
    const deadline = setTimeout(finish, grace * 1000);
    this.timers.add(deadline);
    if (!this.started.has(uid)) return finish();
    this.kubelet.podTerminating(live, grace, this.writer(api, live)).then(finish, finish);
  }

  private writer(api: ClusterApi, pod: Pod): PodStatusWriter {
    const { namespace, name, uid } = pod.metadata;
    const current = () => {
      const p = api.get<Pod>("Pod", namespace, name!);
      return p && p.metadata.uid === uid ? p : undefined;
    };
    return {
      current,
      update: (change) => {
        if (!current()) return false;
        const r = api.mutate<Pod>(
          "Pod",
          namespace,
          name!,
          (p) => {
            if (p.metadata.uid !== uid) return;
            const status = structuredClone(p.status ?? {}) as PodStatus;
            p.status = change(status) ?? status;
          },
          { status: true },
        );
        return r !== undefined;
      },
      event: (type, reason, message) => {
        const p = current();
        if (p) api.recordEvent(p, type, reason, message, "kubelet", p.spec?.nodeName);
      },
    };
  }
}
