/**
 * The part of KServe's InferenceService CRD (serving.kserve.io/v1beta1, from kserve/kserve
 * config/crd/full/serving.kserve.io_inferenceservices.yaml) that Kule writes. The full schema is
 * about a megabyte, mostly PodSpec copies; here the Kubernetes types inside it (Affinity,
 * Toleration, Container, EnvVar) point at kubernetes-models' validators through the
 * `x-kubernetes-models` keyword instead of being copied, and the objects this file cuts short
 * (spec, predictor, model, status) keep unknown fields, so nothing the real CRD allows is rejected
 * or dropped here.
 */
const quantity = {
  anyOf: [{ type: "integer" }, { type: "string" }],
  pattern: "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
  "x-kubernetes-int-or-string": true,
};

const stringList = { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "atomic" };
const stringMap = { type: "object", additionalProperties: { type: "string" } };

const resources = {
  type: "object",
  properties: {
    claims: {
      type: "array",
      items: { type: "object", required: ["name"], properties: { name: { type: "string" }, request: { type: "string" } } },
      "x-kubernetes-list-map-keys": ["name"],
      "x-kubernetes-list-type": "map",
    },
    limits: { type: "object", additionalProperties: quantity },
    requests: { type: "object", additionalProperties: quantity },
  },
};

const model = {
  type: "object",
  "x-kubernetes-preserve-unknown-fields": true,
  properties: {
    args: stringList,
    command: stringList,
    env: { type: "array", items: { type: "object", "x-kubernetes-models": "EnvVar" } },
    image: { type: "string" },
    modelFormat: { type: "object", required: ["name"], properties: { name: { type: "string" }, version: { type: "string" } } },
    name: { type: "string" },
    protocolVersion: { type: "string" },
    resources,
    runtime: { type: "string" },
    runtimeVersion: { type: "string" },
    storageUri: { type: "string" },
  },
};

const predictor = {
  type: "object",
  "x-kubernetes-preserve-unknown-fields": true,
  properties: {
    affinity: { type: "object", "x-kubernetes-models": "Affinity" },
    annotations: stringMap,
    canaryTrafficPercent: { type: "integer", format: "int64" },
    containerConcurrency: { type: "integer", format: "int64" },
    containers: { type: "array", items: { type: "object", "x-kubernetes-models": "Container" } },
    labels: stringMap,
    maxReplicas: { type: "integer", format: "int32" },
    minReplicas: { type: "integer", format: "int32" },
    model,
    nodeSelector: { ...stringMap, "x-kubernetes-map-type": "atomic" },
    serviceAccountName: { type: "string" },
    timeout: { type: "integer", format: "int64" },
    tolerations: { type: "array", items: { type: "object", "x-kubernetes-models": "Toleration" }, "x-kubernetes-list-type": "atomic" },
  },
};

const condition = {
  type: "object",
  required: ["status", "type"],
  properties: {
    lastTransitionTime: { type: "string" },
    message: { type: "string" },
    reason: { type: "string" },
    severity: { type: "string" },
    status: { type: "string" },
    type: { type: "string" },
  },
};

export const inferenceServiceSchema = {
  type: "object",
  properties: {
    apiVersion: { type: "string" },
    kind: { type: "string" },
    metadata: { type: "object" },
    spec: { type: "object", required: ["predictor"], "x-kubernetes-preserve-unknown-fields": true, properties: { predictor } },
    status: {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
      properties: { conditions: { type: "array", items: condition }, observedGeneration: { type: "integer", format: "int64" }, url: { type: "string" } },
    },
  },
} as const;
