import type { ReplicaSpec } from "../driver.ts";
import { KULE, LWS } from "./kube-types.ts";
import { imageOf, podResources, podTemplate, SHM, templateHash, workloadLabels, workloadName, type Shape, type WorkloadOptions } from "./workload.ts";

type LwsShape = Extract<Shape, { kind: "lws" }>;

/**
 * vLLM's multi-node recipe (docs.vllm.ai, "LeaderWorkerSet"): the leader starts a Ray head for the
 * group's size and then the OpenAI server with the pipeline split; each worker joins the head at
 * `LWS_LEADER_ADDRESS`, which the LeaderWorkerSet controller sets. The script ships in the image.
 */
const RAY_SCRIPT = "/vllm-workspace/examples/online_serving/multi-node-serving.sh";
// The leader keeps vLLM's arguments as `args` ("$@" below), so Kule reads --max-num-seqs from them as for any vLLM pod.
const LEADER_COMMAND = ["/bin/sh", "-c", `bash ${RAY_SCRIPT} leader --ray_cluster_size=$(LWS_GROUP_SIZE) && exec vllm serve "$@"`, "--"];
const WORKER_COMMAND = ["/bin/sh", "-c", `bash ${RAY_SCRIPT} worker --ray_address=$(LWS_LEADER_ADDRESS)`];

/**
 * One multi-node replica as a LeaderWorkerSet of one group (`size` = its nodes): the leader pod
 * serves and holds the first stage's GPUs, each worker pod the next stage's. Kule places every pod
 * itself (each is created behind Kule's scheduling gate), so the group's pods are restarted in
 * place (`restartPolicy: None`) rather than recreated, which would lose Kule's placement; the
 * leader's engine fails, and Kule sees it, when any stage does.
 */
export function leaderWorkerSetManifest(spec: ReplicaSpec, shape: LwsShape, o: WorkloadOptions) {
  const name = workloadName(spec, shape);
  const base = podTemplate(spec, shape, name, o);
  const leader = { ...base, spec: { ...base.spec, containers: base.spec.containers.map((c) => ({ ...c, command: LEADER_COMMAND })) } };
  const engine = {
    name: "engine",
    image: imageOf("vllm"),
    command: WORKER_COMMAND,
    volumeMounts: [SHM.mount],
    terminationMessagePolicy: "FallbackToLogsOnError",
    resources: podResources(shape),
  };
  const worker = { metadata: structuredClone(base.metadata), spec: { ...structuredClone(base.spec), containers: [engine] } };
  const template = { leaderTemplate: leader, workerTemplate: worker };
  return {
    apiVersion: LWS.apiVersion,
    kind: LWS.kind,
    metadata: { name, namespace: o.namespace, labels: workloadLabels(spec, name), annotations: { [KULE.templateHash]: templateHash(template) } },
    spec: {
      replicas: 1,
      startupPolicy: "LeaderCreated",
      leaderWorkerTemplate: { size: shape.nodes, restartPolicy: "None", ...template },
    },
  };
}

/** The worker index of a LeaderWorkerSet pod: 0 for the leader (and for pods of other workloads). */
export const workerIndex = (pod: { metadata?: { labels?: Record<string, string> } }) => Number(pod.metadata?.labels?.[LWS.workerIndex] ?? 0) || 0;
