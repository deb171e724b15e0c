import { randomInt } from "node:crypto";
import { isRecord, type KubeObject } from "./kube-object.ts";
import { parseQuantity } from "../quantity.ts";

/**
 * The defaults the API server fills in on every write (and the admission plugins on create), so
 * objects read back look like a real cluster's and an apply that omits them changes nothing.
 */
type Container = {
  image?: string;
  imagePullPolicy?: string;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  resources?: { limits?: Record<string, string | number>; requests?: Record<string, string | number> };
  ports?: { protocol?: string }[];
};

function defaultContainer(c: Container): void {
  const tag = c.image?.includes("@") ? "digest" : (c.image?.split("/").at(-1)?.split(":")[1] ?? "latest");
  c.imagePullPolicy ??= tag === "latest" ? "Always" : "IfNotPresent";
  c.terminationMessagePath ??= "/dev/termination-log";
  c.terminationMessagePolicy ??= "File";
  c.resources ??= {};
  // Requests default to limits, which is why a GPU limit alone is enough to request a GPU.
  const { limits } = c.resources;
  if (limits && Object.keys(limits).length) {
    c.resources.requests = { ...limits, ...c.resources.requests };
  }
  for (const p of c.ports ?? []) p.protocol ??= "TCP";
}

export function defaultPodSpec(spec: Record<string, unknown>): void {
  spec.restartPolicy ??= "Always";
  spec.dnsPolicy ??= "ClusterFirst";
  spec.schedulerName ??= "default-scheduler";
  spec.terminationGracePeriodSeconds ??= 30;
  spec.securityContext ??= {};
  for (const list of ["containers", "initContainers"]) for (const c of (spec[list] ?? []) as Container[]) if (isRecord(c)) defaultContainer(c);
}

/** The QoS class the API server records in a new Pod's status. */
export function qosClass(spec: Record<string, unknown>): "Guaranteed" | "Burstable" | "BestEffort" {
  const containers = (spec.containers ?? []) as Container[];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const { limits = {}, requests = {} } = c.resources ?? {};
    for (const r of ["cpu", "memory"]) {
      if (requests[r] !== undefined || limits[r] !== undefined) any = true;
      if (limits[r] === undefined || parseQuantity(requests[r] ?? limits[r]) !== parseQuantity(limits[r])) guaranteed = false;
    }
  }
  return !any ? "BestEffort" : guaranteed ? "Guaranteed" : "Burstable";
}

const DEFAULT_TOLERATIONS = ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"].map((key) => ({
  key,
  operator: "Exists",
  effect: "NoExecute",
  tolerationSeconds: 300,
}));

/** Defaults applied on every create and update. */
export function applyDefaults(obj: KubeObject): void {
  const spec = (obj.spec ??= {}) as Record<string, unknown>;
  switch (obj.kind) {
    case "Pod":
      defaultPodSpec(spec);
      break;
    case "Deployment":
      spec.replicas ??= 1;
      spec.revisionHistoryLimit ??= 10;
      spec.progressDeadlineSeconds ??= 600;
      spec.strategy ??= { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" } };
      defaultTemplate(spec);
      break;
    case "ReplicaSet":
      spec.replicas ??= 1;
      defaultTemplate(spec);
      break;
    case "LeaderWorkerSet": {
      // The CRD's defaults and the LWS webhook's (restartPolicy).
      spec.replicas ??= 1;
      spec.startupPolicy ??= "LeaderCreated";
      spec.rolloutStrategy ??= { type: "RollingUpdate", rollingUpdateConfiguration: { maxUnavailable: 1, maxSurge: 0 } };
      const lwt = (spec.leaderWorkerTemplate ??= {}) as Record<string, unknown>;
      lwt.size ??= 1;
      lwt.restartPolicy ??= "RecreateGroupOnPodRestart";
      break;
    }
    case "Service":
      spec.type ??= "ClusterIP";
      spec.sessionAffinity ??= "None";
      for (const p of (spec.ports ?? []) as { port?: number; targetPort?: number | string; protocol?: string }[]) {
        p.protocol ??= "TCP";
        p.targetPort ??= p.port;
      }
      break;
    case "Namespace":
      spec.finalizers ??= ["kubernetes"];
      obj.metadata.labels = { ...obj.metadata.labels, "kubernetes.io/metadata.name": obj.metadata.name! };
      break;
    case "Secret":
      obj.type ??= "Opaque";
      if (isRecord(obj.stringData)) {
        const encoded = Object.fromEntries(Object.entries(obj.stringData).map(([k, v]) => [k, Buffer.from(String(v)).toString("base64")]));
        obj.data = { ...(obj.data as object | undefined), ...encoded };
        delete obj.stringData;
      }
      break;
  }
  if (["ConfigMap", "Secret", "Event"].includes(obj.kind) && Object.keys(spec).length === 0) delete obj.spec;
}

function defaultTemplate(spec: Record<string, unknown>): void {
  const template = spec.template as { spec?: Record<string, unknown> } | undefined;
  if (isRecord(template?.spec)) defaultPodSpec(template.spec);
}

/** What admission and the registry's PrepareForCreate add to a new object only. */
export function applyCreateDefaults(obj: KubeObject): void {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  if (obj.kind === "Pod") {
    spec.serviceAccountName ??= "default";
    spec.enableServiceLinks ??= true;
    spec.preemptionPolicy ??= "PreemptLowerPriority";
    spec.priority ??= 0;
    const tolerations = (spec.tolerations ??= []) as { key?: string }[];
    for (const t of DEFAULT_TOLERATIONS) if (!tolerations.some((x) => x.key === t.key)) tolerations.push({ ...t });
    obj.status = { phase: "Pending", qosClass: qosClass(spec) };
  } else if (obj.kind === "Service") {
    if (spec.type !== "ExternalName" && spec.clusterIP === undefined) {
      const ip = `10.96.${randomInt(0, 256)}.${randomInt(1, 255)}`;
      Object.assign(spec, { clusterIP: ip, clusterIPs: [ip], ipFamilies: ["IPv4"], ipFamilyPolicy: "SingleStack", internalTrafficPolicy: "Cluster" });
    }
    obj.status = { loadBalancer: {} };
  } else if (obj.kind === "Namespace") {
    obj.status = { phase: "Active" };
  } else if (obj.kind === "Deployment" || obj.kind === "ReplicaSet" || obj.kind === "InferenceService" || obj.kind === "LeaderWorkerSet") {
    // Status is the controllers' to write; a client's is dropped, as PrepareForCreate does.
    delete obj.status;
  }
}
