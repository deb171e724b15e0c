import { createHash } from "node:crypto";
import type { ReplicaSpec } from "../driver.ts";
import { GPU, KULE, type PodObj } from "./kube-types.ts";

/**
 * What a replica needs: a whole GPU, one MIG instance of a profile, CPU, `count` whole GPUs of
 * one node (tensor parallel), or a LeaderWorkerSet group of `nodes` pods with `gpusPerNode` each
 * (pipeline stages across nodes, tensor parallel within each).
 */
export type Shape =
  | { kind: "gpu" }
  | { kind: "mig"; profile: string }
  | { kind: "cpu" }
  | { kind: "gpus"; count: number }
  | { kind: "lws"; nodes: number; gpusPerNode: number };

/** How many whole GPUs one pod of the shape asks the device plugin for. */
export function gpusPerPod(shape: Shape): number {
  return shape.kind === "gpu" ? 1 : shape.kind === "gpus" ? shape.count : shape.kind === "lws" ? shape.gpusPerNode : 0;
}

export interface WorkloadOptions {
  namespace: string;
  poolLabel: string;
  /** Where the serving process listens in its pod. */
  port: number;
}

export const SERVING_PORT = 8000;

/** Images of the engines Kule runs; Triton serves the ONNX, OpenVINO and TensorRT-LLM backends too. */
const IMAGES = {
  vllm: "vllm/vllm-openai:v0.11.0",
  triton: "nvcr.io/nvidia/tritonserver:25.09-py3",
  tensorrt_llm: "nvcr.io/nvidia/tritonserver:25.09-trtllm-python-py3",
} as const;

const dns = (s: string) => s.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "");

/** Whether a workload name is a LeaderWorkerSet's: its shape suffix, as `shapeName` writes it. */
export const isLeaderWorkerSet = (workload: string) => /-pp\d+x\d+$/.test(workload);

export function shapeName(shape: Shape): string {
  if (shape.kind === "mig") return `mig-${dns(shape.profile.replace(".", "-"))}`;
  if (shape.kind === "gpus") return `gpu${shape.count}`;
  if (shape.kind === "lws") return `pp${shape.nodes}x${shape.gpusPerNode}`;
  return shape.kind;
}

/**
 * One workload per endpoint version and shape (nearly always one per version): a DNS-1123 name
 * short enough for the ReplicaSet and pod names Kubernetes derives from it.
 */
export function workloadName(spec: Pick<ReplicaSpec, "endpointSlug" | "versionId" | "id">, shape: Shape, kind: "deployment" | "isvc" = "deployment"): string {
  const hash = createHash("sha256").update(spec.versionId).digest("hex").slice(0, 8);
  // A LeaderWorkerSet scales down by its highest group, not the one Kule stops: each multi-node replica has its own.
  const own = shape.kind === "lws" ? `-${createHash("sha256").update(spec.id).digest("hex").slice(0, 6)}` : "";
  // InferenceServices get their own names: KServe's pods must never match a Deployment's selector.
  return `${kind === "isvc" ? "kule-is" : "kule"}-${dns(spec.endpointSlug).slice(0, 20).replace(/-+$/, "")}-${hash}${own}-${shapeName(shape)}`;
}

export function workloadLabels(spec: ReplicaSpec, name: string): Record<string, string> {
  return { [KULE.managedBy]: "kule", [KULE.workload]: name, [KULE.endpoint]: dns(spec.endpointSlug).slice(0, 63), [KULE.versionId]: spec.versionId };
}

/** What the pod serves, for whoever reads it (an operator, or the simulator's kubelet playing the engine). */
export function modelAnnotations(spec: ReplicaSpec): Record<string, string> {
  return {
    [KULE.model.servedName]: spec.servedModelName,
    [KULE.model.endpoint]: spec.endpointSlug,
    [KULE.model.version]: spec.versionLabel,
    [KULE.model.task]: spec.task,
    [KULE.model.weightBytes]: String(spec.weightBytes),
    [KULE.model.parameters]: String(spec.parameterCount),
  };
}

/** vLLM's batch limit Kule starts engines with (vLLM does not export it; batch fill needs it). */
export const MAX_NUM_SEQS = 64;
/** Triton serves its metrics on a port of their own. */
export const TRITON_METRICS_PORT = 8002;

/**
 * Where Prometheus scrapes a pod's engine, read from the container Kule gave it: vLLM on its API
 * port, Triton on its metrics port; and vLLM's --max-num-seqs.
 */
export function engineMetrics(pod: PodObj, ip: string, port: number): { metricsUrl: string; maxNumSeqs: number | null } {
  const args = pod.spec?.containers?.find((c) => c.name === "engine")?.args ?? [];
  if (args[0] === "tritonserver") return { metricsUrl: `http://${ip}:${TRITON_METRICS_PORT}/metrics`, maxNumSeqs: null };
  const i = args.indexOf("--max-num-seqs");
  return { metricsUrl: `http://${ip}:${port}/metrics`, maxNumSeqs: i >= 0 ? Number(args[i + 1]) || null : null };
}

export const engineOf = (spec: Pick<ReplicaSpec, "engine" | "task">) => spec.engine ?? (spec.task === "llm" ? "vllm" : "triton");
export const imageOf = (engine: ReturnType<typeof engineOf>) => (engine === "vllm" ? IMAGES.vllm : engine === "tensorrt_llm" ? IMAGES.tensorrt_llm : IMAGES.triton);

/** The device a pod asks the device plugin for: whole GPUs, or one MIG instance. */
export function deviceResource(shape: Shape): Record<string, string> {
  if (shape.kind === "mig") return { [`nvidia.com/mig-${shape.profile}`]: "1" };
  const n = gpusPerPod(shape);
  return n ? { [GPU.resource]: String(n) } : {};
}

/** What one serving container of the shape asks for: its device and the host memory and CPU an engine needs beside it. */
export function podResources(shape: Shape) {
  if (shape.kind === "cpu") return { requests: { cpu: "4", memory: "16Gi" }, limits: { memory: "16Gi" } };
  const device = deviceResource(shape);
  return { requests: { cpu: "4", memory: "32Gi", ...device }, limits: { memory: "64Gi", ...device } };
}

/** NCCL passes tensors between a node's GPUs through /dev/shm, which a container gets only 64 MiB of by default. */
export const SHM = { volume: { name: "dshm", emptyDir: { medium: "Memory", sizeLimit: "16Gi" } }, mount: { name: "dshm", mountPath: "/dev/shm" } };

/** vLLM's split flags for a group: tensor parallel within a node, pipeline stages across them (over Ray). */
function splitArgs(shape: Shape): string[] {
  if (shape.kind === "gpus") return ["--tensor-parallel-size", String(shape.count)];
  if (shape.kind === "lws") return ["--tensor-parallel-size", String(shape.gpusPerNode), "--pipeline-parallel-size", String(shape.nodes), "--distributed-executor-backend", "ray"];
  return [];
}

/** The engine's container: image, arguments, port, readiness probe and the device it asks for. */
export function servingContainer(spec: ReplicaSpec, shape: Shape, port: number) {
  const engine = engineOf(spec);
  const weights = spec.artifactUri ?? `models/${spec.servedModelName}`;
  const vllm = engine === "vllm";
  return {
    name: "engine",
    image: imageOf(engine),
    args: vllm
      ? ["--model", weights, "--served-model-name", spec.servedModelName, spec.endpointSlug, "--host", "0.0.0.0", "--port", String(port), "--max-num-seqs", String(MAX_NUM_SEQS), ...splitArgs(shape)]
      : ["tritonserver", `--model-repository=${weights}`, `--http-port=${port}`, "--allow-metrics=true"],
    ...(gpusPerPod(shape) > 1 ? { volumeMounts: [SHM.mount] } : {}),
    ports: [{ name: "http", containerPort: port }],
    readinessProbe: { httpGet: { path: vllm ? "/health" : "/v2/health/ready", port }, periodSeconds: 5, failureThreshold: 3 },
    // The last lines of a crash become the container's termination message, which Kule shows.
    terminationMessagePolicy: "FallbackToLogsOnError",
    resources: podResources(shape),
  };
}

/**
 * The pod template of a version's replicas: in its pool, tolerating GPU taints, and created
 * behind Kule's scheduling gate, which Kule lifts once it has named the pod's node.
 */
export function podTemplate(spec: ReplicaSpec, shape: Shape, name: string, o: WorkloadOptions) {
  return {
    metadata: { labels: workloadLabels(spec, name), annotations: modelAnnotations(spec) },
    spec: {
      nodeSelector: { [o.poolLabel]: spec.pool ?? "default" },
      tolerations: shape.kind === "cpu" ? [] : [{ key: GPU.resource, operator: "Exists", effect: "NoSchedule" }],
      schedulingGates: [{ name: KULE.gate }],
      // Long enough for any drain Kule asks for (at most an hour); Kule's own drains end sooner.
      terminationGracePeriodSeconds: 3600,
      containers: [servingContainer(spec, shape, o.port)],
      ...(gpusPerPod(shape) > 1 ? { volumes: [SHM.volume] } : {}),
    },
  };
}

/** A hash of what Kule wants a workload's pods to be: when it changes, Kule applies the workload again. */
export function templateHash(template: unknown): string {
  return createHash("sha256").update(JSON.stringify(template)).digest("hex").slice(0, 16);
}

/** The Deployment of a version's replicas, as Kule applies it (server-side, field manager "kule"). */
export function deploymentManifest(spec: ReplicaSpec, shape: Shape, replicas: number, o: WorkloadOptions) {
  const name = workloadName(spec, shape);
  const template = podTemplate(spec, shape, name, o);
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: o.namespace, labels: workloadLabels(spec, name), annotations: { [KULE.templateHash]: templateHash(template) } },
    spec: {
      replicas,
      selector: { matchLabels: { [KULE.workload]: name } },
      // Replicas are added and removed one by one by Kule; a template change replaces them all at once.
      strategy: { type: "Recreate" },
      template,
    },
  };
}

/** A Service in front of a version's pods, for whoever calls them inside the cluster; Kule's gateway calls each pod. */
export function serviceManifest(spec: ReplicaSpec, shape: Shape, o: WorkloadOptions) {
  const name = workloadName(spec, shape);
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace: o.namespace, labels: workloadLabels(spec, name) },
    spec: { selector: { [KULE.workload]: name }, ports: [{ name: "http", port: o.port, targetPort: o.port }] },
  };
}

/** A workload manifest without its replica count: what Kule applies to bring the rest up to date (the count moves by compare-and-swap). */
export function withoutCount<M extends { spec: object }>(manifest: M): M {
  const spec = structuredClone(manifest.spec) as { replicas?: number; predictor?: { minReplicas?: number; maxReplicas?: number } };
  delete spec.replicas;
  if (spec.predictor) {
    delete spec.predictor.minReplicas;
    delete spec.predictor.maxReplicas;
  }
  return { ...manifest, spec: spec as M["spec"] };
}

/**
 * The KServe alternative: one InferenceService per version in raw deployment mode with a fixed
 * replica count; KServe makes the Deployment, Kule's gateway still splits the traffic.
 */
export function inferenceServiceManifest(spec: ReplicaSpec, shape: Shape, replicas: number, o: WorkloadOptions) {
  const name = workloadName(spec, shape, "isvc");
  const template = podTemplate(spec, shape, name, o);
  return {
    apiVersion: "serving.kserve.io/v1beta1",
    kind: "InferenceService",
    metadata: {
      name,
      namespace: o.namespace,
      labels: workloadLabels(spec, name),
      annotations: { "serving.kserve.io/deploymentMode": "RawDeployment", "serving.kserve.io/autoscalerClass": "none", [KULE.templateHash]: templateHash(template) },
    },
    spec: {
      predictor: {
        minReplicas: replicas,
        maxReplicas: Math.max(1, replicas),
        labels: template.metadata.labels,
        annotations: template.metadata.annotations,
        ...template.spec,
      },
    },
  };
}
