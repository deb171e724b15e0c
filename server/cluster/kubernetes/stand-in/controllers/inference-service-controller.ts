import type { KubeObject } from "../kube-object.ts";
import type { ClusterApi } from "./cluster-api.ts";
import { WorkQueue, objectKey, splitKey, type Controller } from "./controller.ts";
import { controllerOf, controllerRef, setCondition } from "./workload-helpers.ts";

type Predictor = {
  minReplicas?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  containers?: unknown[];
  [field: string]: unknown;
};
type InferenceService = KubeObject & { spec?: { predictor?: Predictor }; status?: Record<string, unknown> };
type Deployment = KubeObject & { spec?: { replicas?: number }; status?: { availableReplicas?: number; replicas?: number } };

const ISVC_LABEL = "serving.kserve.io/inferenceservice";
/** Fields of the predictor that are KServe's own; the rest is the pod spec. */
const NOT_POD_SPEC = new Set(["minReplicas", "maxReplicas", "labels", "annotations", "canaryTrafficPercent", "containerConcurrency", "timeout", "model", "scaleMetric", "scaleTarget"]);

/**
 * KServe's controller in raw deployment mode, for the predictor only: an InferenceService with
 * custom containers becomes a Deployment and a Service named `<name>-predictor`, with
 * `minReplicas` pods; its status reports the predictor ready once every pod is available.
 * (Serverless mode, transformers, explainers and model-format runtimes are not played.)
 */
export class InferenceServiceController implements Controller {
  readonly name = "kserve-controller-manager";
  private queue?: WorkQueue;
  private off?: () => void;

  constructor(private readonly onError?: (key: string, e: unknown) => void) {}

  start(api: ClusterApi): void {
    const queue = (this.queue = new WorkQueue((key) => this.sync(api, key), this.onError));
    this.off = api.onChange(["InferenceService", "Deployment"], (e) => {
      if (e.kind.kind === "InferenceService") queue.add(objectKey(e.object.metadata.namespace, e.object.metadata.name!));
      const owner = controllerOf(e.object);
      if (e.kind.kind === "Deployment" && owner?.kind === "InferenceService") queue.add(objectKey(e.object.metadata.namespace, owner.name));
    });
    for (const o of api.list("InferenceService")) queue.add(objectKey(o.metadata.namespace, o.metadata.name!));
  }

  stop(): void {
    this.off?.();
    this.queue?.stop();
  }

  private sync(api: ClusterApi, key: string): void {
    const [namespace, name] = splitKey(key);
    const isvc = api.get<InferenceService>("InferenceService", namespace, name);
    if (!isvc || isvc.metadata.deletionTimestamp) return;
    const predictor = isvc.spec?.predictor ?? {};
    const podSpec = Object.fromEntries(Object.entries(predictor).filter(([k]) => !NOT_POD_SPEC.has(k)));
    const labels = { ...predictor.labels, [ISVC_LABEL]: name, component: "predictor", app: `isvc.${name}-predictor` };
    const deploymentName = `${name}-predictor`;
    const desired = {
      replicas: predictor.minReplicas ?? 1,
      selector: { matchLabels: { app: `isvc.${name}-predictor` } },
      template: { metadata: { labels, ...(predictor.annotations ? { annotations: { ...predictor.annotations } } : {}) }, spec: podSpec },
    };
    const existing = api.get<Deployment>("Deployment", namespace, deploymentName);
    if (!existing) {
      api.create({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: deploymentName, namespace, labels, ownerReferences: [controllerRef(isvc)] }, spec: desired });
      api.create({ apiVersion: "v1", kind: "Service", metadata: { name: deploymentName, namespace, labels, ownerReferences: [controllerRef(isvc)] }, spec: { selector: { app: `isvc.${name}-predictor` }, ports: [{ name: "http", port: 80, targetPort: 8080 }] } });
    } else if (JSON.stringify(existing.spec) !== JSON.stringify({ ...existing.spec, ...desired })) {
      api.mutate<Deployment>("Deployment", namespace, deploymentName, (d) => Object.assign(d.spec!, desired));
    }
    const deployment = api.get<Deployment>("Deployment", namespace, deploymentName);
    const ready = (deployment?.status?.availableReplicas ?? 0) >= desired.replicas;
    const at = new Date().toISOString();
    const prev = (isvc.status?.conditions ?? []) as { type: string; status: string; reason?: string; lastTransitionTime?: string }[];
    const reason = ready ? {} : { reason: "MinimumReplicasUnavailable" };
    const conditions = setCondition(setCondition(prev, { type: "PredictorReady", status: ready ? "True" : "False", ...reason }, at), { type: "Ready", status: ready ? "True" : "False", ...reason }, at);
    const status = { ...isvc.status, observedGeneration: isvc.metadata.generation, url: `http://${name}-${namespace}.example.com`, conditions };
    // Written only when it changed: the write is itself a change this controller is told about.
    if (JSON.stringify(status) === JSON.stringify(isvc.status)) return;
    api.mutate<InferenceService>(
      "InferenceService",
      namespace,
      name,
      (o) => {
        o.status = status;
      },
      { status: true },
    );
  }
}
