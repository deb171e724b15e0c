/**
 * The LeaderWorkerSet CRD's schema (leaderworkerset.x-k8s.io/v1, from kubernetes-sigs/lws
 * config/crd/bases/leaderworkerset.x-k8s.io_leaderworkersets.yaml), cut as the InferenceService's
 * is: the two pod templates are checked by kubernetes-models' own PodTemplateSpec validator (the
 * CRD embeds PodTemplateSpec whole), and the fields around them are the CRD's, with its enums.
 * Unknown fields are refused here where the real API server would prune them silently: a field
 * Kule writes that the CRD does not know would be lost on a real cluster, so a test should fail.
 */
const intOrString = { anyOf: [{ type: "integer" }, { type: "string" }], "x-kubernetes-int-or-string": true };
const podTemplate = { type: "object", "x-kubernetes-models": "PodTemplateSpec" };

const condition = {
  type: "object",
  required: ["lastTransitionTime", "message", "reason", "status", "type"],
  properties: {
    lastTransitionTime: { type: "string" },
    message: { type: "string", maxLength: 32768 },
    observedGeneration: { type: "integer", format: "int64", minimum: 0 },
    reason: { type: "string", maxLength: 1024, minLength: 1 },
    status: { type: "string", enum: ["True", "False", "Unknown"] },
    type: { type: "string", maxLength: 316 },
  },
};

export const leaderWorkerSetSchema = {
  type: "object",
  properties: {
    apiVersion: { type: "string" },
    kind: { type: "string" },
    metadata: { type: "object" },
    spec: {
      type: "object",
      required: ["leaderWorkerTemplate"],
      additionalProperties: false,
      properties: {
        replicas: { type: "integer", format: "int32" },
        startupPolicy: { type: "string", enum: ["LeaderCreated", "LeaderReady"] },
        networkConfig: { type: "object", required: ["subdomainPolicy"], properties: { subdomainPolicy: { type: "string" } } },
        rolloutStrategy: {
          type: "object",
          required: ["type"],
          properties: {
            type: { type: "string", enum: ["RollingUpdate"] },
            rollingUpdateConfiguration: { type: "object", properties: { maxSurge: intOrString, maxUnavailable: intOrString, partition: { type: "integer", format: "int32" } } },
          },
        },
        leaderWorkerTemplate: {
          type: "object",
          required: ["workerTemplate"],
          additionalProperties: false,
          properties: {
            leaderTemplate: podTemplate,
            workerTemplate: podTemplate,
            size: { type: "integer", format: "int32", minimum: 1 },
            restartPolicy: { type: "string", enum: ["RecreateGroupOnPodRestart", "RecreateGroupAfterStart", "Default", "None"] },
            subGroupPolicy: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
            volumeClaimTemplates: { type: "array", items: { type: "object" } },
          },
        },
      },
    },
    status: {
      type: "object",
      properties: {
        conditions: { type: "array", items: condition },
        hpaPodSelector: { type: "string" },
        readyReplicas: { type: "integer", format: "int32" },
        replicas: { type: "integer", format: "int32" },
        updatedReplicas: { type: "integer", format: "int32" },
      },
    },
  },
} as const;
