import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppsV1Api, CoreV1Api, CustomObjectsApi, type KubeConfig, type V1Deployment } from "@kubernetes/client-node";
import { startStandIn, type StandIn } from "./index.ts";
import { failure } from "./test-kit.ts";

let standIn: StandIn;
let kc: KubeConfig;

beforeAll(async () => {
  standIn = await startStandIn({ kubelet: false, migApplier: false, scheduler: false, workloadControllers: false });
  kc = standIn.kubeConfig();
});
afterAll(() => standIn.stop());

/** The fields a 422 names, each once (a value can break more than one rule, e.g. type and enum). */
const fields = (s: { details?: { causes?: { field?: string }[] } }) => [...new Set((s.details?.causes ?? []).map((c) => c.field))];

describe("invalid objects are refused with 422 naming the field, and nothing is stored", () => {
  it("a Pod without an image, with a bad name, or with a GPU request above its limit", async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const noImage = await failure(core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "no-image" }, spec: { containers: [{ name: "model" }] } } as never }));
    expect(noImage).toMatchObject({ code: 422, reason: "Invalid", message: 'Pod "no-image" is invalid: spec.containers[0].image: Required value', details: { name: "no-image", kind: "Pod" } });
    expect(fields(noImage)).toEqual(["spec.containers[0].image"]);

    const badName = await failure(core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "Llama_8B" }, spec: { containers: [{ name: "model", image: "vllm" }] } } }));
    expect(fields(badName)).toEqual(["metadata.name"]);
    expect(badName.message).toContain("a lowercase RFC 1123 subdomain");

    const gpu = await failure(
      core.createNamespacedPod({
        namespace: "default",
        body: { metadata: { name: "gpu" }, spec: { containers: [{ name: "model", image: "vllm", resources: { requests: { "nvidia.com/gpu": "2" }, limits: { "nvidia.com/gpu": "1" } } }] } },
      }),
    );
    expect(fields(gpu)).toEqual(["spec.containers[0].resources.requests[nvidia.com/gpu]"]);
    expect(gpu.details!.causes![0]!.message).toBe('Invalid value: "2": must be equal to nvidia.com/gpu limit of 1');

    expect((await core.listNamespacedPod({ namespace: "default" })).items).toEqual([]);
  });

  it("a Deployment whose replicas are not a number, or whose selector misses its template's labels", async () => {
    const apps = kc.makeApiClient(AppsV1Api);
    const deployment = (name: string, spec: Partial<NonNullable<V1Deployment["spec"]>>): V1Deployment => ({
      metadata: { name },
      spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "model", image: "vllm" }] } }, ...spec },
    });
    const replicas = await failure(apps.createNamespacedDeployment({ namespace: "default", body: deployment("typed", { replicas: "two" as unknown as number }) }));
    expect(fields(replicas)).toEqual(["spec.replicas"]);
    expect(replicas.details!.causes![0]!.message).toContain("must be of type integer");

    const selector = await failure(apps.createNamespacedDeployment({ namespace: "default", body: deployment("selector", { selector: { matchLabels: { app: "other" } } }) }));
    expect(fields(selector)).toEqual(["spec.template.metadata.labels"]);
    expect(selector.details!.causes![0]!.message).toContain("`selector` does not match template `labels`");

    expect((await apps.listNamespacedDeployment({ namespace: "default" })).items).toEqual([]);
  });

  it("an InferenceService against KServe's schema, with the Kubernetes types inside it checked too", async () => {
    const custom = kc.makeApiClient(CustomObjectsApi);
    const create = (name: string, predictor: Record<string, unknown>) =>
      failure(
        custom.createNamespacedCustomObject({
          group: "serving.kserve.io",
          version: "v1beta1",
          namespace: "default",
          plural: "inferenceservices",
          body: { apiVersion: "serving.kserve.io/v1beta1", kind: "InferenceService", metadata: { name }, spec: { predictor } },
        }),
      );
    const minReplicas = await create("min", { minReplicas: "one", model: { modelFormat: { name: "onnx" } } });
    expect(minReplicas).toMatchObject({ code: 422, reason: "Invalid", details: { group: "serving.kserve.io", kind: "InferenceService" } });
    expect(fields(minReplicas)).toEqual(["spec.predictor.minReplicas"]);
    expect(minReplicas.message).toMatch(/^InferenceService\.serving\.kserve\.io "min" is invalid: spec\.predictor\.minReplicas: Invalid value/);

    expect(fields(await create("format", { model: { modelFormat: { version: "1" }, storageUri: "s3://m" } }))).toEqual(["spec.predictor.model.modelFormat.name"]);
    expect(fields(await create("tolerate", { tolerations: [{ key: "nvidia.com/gpu", operator: 7 }] }))).toEqual(["spec.predictor.tolerations[0].operator"]);
    expect(fields(await create("quantity", { model: { modelFormat: { name: "onnx" }, resources: { limits: { "nvidia.com/gpu": "one" } } } }))).toEqual([
      "spec.predictor.model.resources.limits[nvidia.com/gpu]",
    ]);
    expect(fields(await create("Upper", { model: { modelFormat: { name: "onnx" } } }))).toEqual(["metadata.name"]);
    const list = (await custom.listNamespacedCustomObject({ group: "serving.kserve.io", version: "v1beta1", namespace: "default", plural: "inferenceservices" })) as { items: unknown[] };
    expect(list.items).toEqual([]);
  });

  it("a valid InferenceService is stored with the fields outside the vendored schema kept", async () => {
    const custom = kc.makeApiClient(CustomObjectsApi);
    const predictor = {
      minReplicas: 1,
      maxReplicas: 2,
      nodeSelector: { "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3" },
      tolerations: [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }],
      model: {
        modelFormat: { name: "huggingface" },
        runtime: "kserve-huggingfaceserver",
        storageUri: "hf://meta-llama/Llama-3.1-8B-Instruct",
        args: ["--max-model-len=8192"],
        resources: { limits: { "nvidia.com/gpu": "1", memory: "64Gi" } },
        ports: [{ containerPort: 8080, protocol: "TCP" }],
      },
    };
    const created = (await custom.createNamespacedCustomObject({
      group: "serving.kserve.io",
      version: "v1beta1",
      namespace: "default",
      plural: "inferenceservices",
      body: { apiVersion: "serving.kserve.io/v1beta1", kind: "InferenceService", metadata: { name: "llama-8b" }, spec: { predictor } },
    })) as { metadata: { generation: number; uid: string }; spec: { predictor: unknown } };
    expect(created.spec.predictor).toEqual(predictor);
    expect(created.metadata.generation).toBe(1);
  });
});
