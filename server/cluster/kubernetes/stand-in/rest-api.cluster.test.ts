import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CoreV1Api, CustomObjectsApi, KubernetesObjectApi, PatchStrategy, VersionApi, setHeaderOptions, type KubeConfig, type V1ConfigMap } from "@kubernetes/client-node";
import { startStandIn, type StandIn } from "./index.ts";
import { failure } from "./test-kit.ts";

let standIn: StandIn;
let kc: KubeConfig;
let core: CoreV1Api;

beforeAll(async () => {
  standIn = await startStandIn({ kubelet: false, migApplier: false });
  kc = standIn.kubeConfig();
  core = kc.makeApiClient(CoreV1Api);
});
afterAll(() => standIn.stop());

const configMap = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = { k: "v" }): V1ConfigMap => ({ metadata: { name, labels }, data });
const isvc = (name: string) => ({
  apiVersion: "serving.kserve.io/v1beta1",
  kind: "InferenceService",
  metadata: { name, namespace: "default" },
  spec: { predictor: { minReplicas: 1, model: { modelFormat: { name: "huggingface" }, runtime: "kserve-vllm", storageUri: "hf://meta-llama/Llama-3.1-8B" } } },
});

describe("discovery and errors as client-node sees them", () => {
  it("answers discovery so KubernetesObjectApi resolves core, apps and KServe kinds, and reports its version", async () => {
    const objects = KubernetesObjectApi.makeApiClient(kc);
    const pods = await objects.list("v1", "Pod", "default");
    const deployments = await objects.list("apps/v1", "Deployment", "default");
    const services = await objects.list("serving.kserve.io/v1beta1", "InferenceService", "default");
    expect([pods.kind, deployments.kind, services.kind]).toEqual(["PodList", "DeploymentList", "InferenceServiceList"]);
    const version = await kc.makeApiClient(VersionApi).getCode();
    expect(version.gitVersion).toMatch(/^v1\.\d+\.\d+$/);
    await expect(objects.list("serving.kserve.io/v1alpha1", "InferenceService", "default")).rejects.toThrow();
  });

  it("a missing object is a 404 NotFound Status naming the resource", async () => {
    const status = await failure(core.readNamespacedPod({ namespace: "default", name: "ghost" }));
    expect(status).toMatchObject({ kind: "Status", status: "Failure", reason: "NotFound", code: 404, message: 'pods "ghost" not found', details: { name: "ghost", kind: "pods" } });
  });

  it("creating an existing name is 409 AlreadyExists; creating in a missing namespace is 404", async () => {
    await core.createNamespacedConfigMap({ namespace: "default", body: configMap("twice") });
    expect(await failure(core.createNamespacedConfigMap({ namespace: "default", body: configMap("twice") }))).toMatchObject({ reason: "AlreadyExists", code: 409 });
    expect(await failure(core.createNamespacedConfigMap({ namespace: "nowhere", body: configMap("x") }))).toMatchObject({ reason: "NotFound", message: 'namespaces "nowhere" not found' });
  });

  it("an update carrying a stale resourceVersion is 409 Conflict and changes nothing", async () => {
    const created = await core.createNamespacedConfigMap({ namespace: "default", body: configMap("occ", {}, { v: "1" }) });
    const fresh = await core.replaceNamespacedConfigMap({ namespace: "default", name: "occ", body: { ...created, data: { v: "2" } } });
    expect(Number(fresh.metadata!.resourceVersion)).toBeGreaterThan(Number(created.metadata!.resourceVersion));
    const stale = await failure(core.replaceNamespacedConfigMap({ namespace: "default", name: "occ", body: { ...created, data: { v: "3" } } }));
    expect(stale).toMatchObject({ reason: "Conflict", code: 409 });
    expect(stale.message).toContain("the object has been modified");
    const now = await core.readNamespacedConfigMap({ namespace: "default", name: "occ" });
    expect(now.data).toEqual({ v: "2" });
    expect(now.metadata!.resourceVersion).toBe(fresh.metadata!.resourceVersion);
  });
});

describe("lists", () => {
  beforeAll(async () => {
    await core.createNamespace({ body: { metadata: { name: "lists" } } });
    const labels: Record<string, Record<string, string>> = { a: { tier: "gpu", pool: "h100" }, b: { tier: "gpu", pool: "a100" }, c: { tier: "cpu" }, d: {} };
    for (const [name, l] of Object.entries(labels)) await core.createNamespacedConfigMap({ namespace: "lists", body: configMap(name, l) });
  });

  const names = async (labelSelector?: string, fieldSelector?: string) =>
    (await core.listNamespacedConfigMap({ namespace: "lists", labelSelector, fieldSelector })).items.map((i) => i.metadata!.name);

  it("filter by every label selector operator and by metadata fields", async () => {
    expect(await names("tier=gpu")).toEqual(["a", "b"]);
    expect(await names("tier!=gpu")).toEqual(["c", "d"]);
    expect(await names("pool in (h100,l40s)")).toEqual(["a"]);
    expect(await names("pool notin (h100)")).toEqual(["b", "c", "d"]);
    expect(await names("tier")).toEqual(["a", "b", "c"]);
    expect(await names("!tier")).toEqual(["d"]);
    expect(await names("tier=gpu,pool=a100")).toEqual(["b"]);
    expect(await names(undefined, "metadata.name=c")).toEqual(["c"]);
    expect(await names(undefined, "metadata.name!=c,metadata.namespace=lists")).toEqual(["a", "b", "d"]);
    expect(await failure(core.listNamespacedConfigMap({ namespace: "lists", fieldSelector: "data.k=v" }))).toMatchObject({ code: 400, reason: "BadRequest" });
  });

  it("carry the list's resourceVersion, page with limit and continue, and span namespaces", async () => {
    const first = await core.listNamespacedConfigMap({ namespace: "lists", limit: 3 });
    expect(first.items.map((i) => i.metadata!.name)).toEqual(["a", "b", "c"]);
    expect(first.metadata!.remainingItemCount).toBe(1);
    const rest = await core.listNamespacedConfigMap({ namespace: "lists", limit: 3, _continue: first.metadata!._continue });
    expect(rest.items.map((i) => i.metadata!.name)).toEqual(["d"]);
    expect(rest.metadata!.resourceVersion).toBe(first.metadata!.resourceVersion);
    expect(rest.metadata!._continue).toBeUndefined();
    const all = await core.listConfigMapForAllNamespaces({ labelSelector: "tier" });
    expect(all.items.every((i) => i.metadata!.namespace === "lists")).toBe(true);
    expect(Number(all.metadata!.resourceVersion)).toBe(standIn.store.revision);
  });
});

describe("patches", () => {
  it("merge patch needs its content type set; strategic merge merges containers by name; JSON patch applies operations", async () => {
    await core.createNamespacedPod({
      namespace: "default",
      body: { metadata: { name: "patched" }, spec: { containers: [{ name: "model", image: "vllm/vllm-openai:v0.11.0" }, { name: "sidecar", image: "envoy:v1" }] } },
    });
    // client-node's default patch type is JSON patch, so an object body needs the header set.
    const merged = await core.patchNamespacedPod({ namespace: "default", name: "patched", body: { metadata: { labels: { rev: "2" } } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
    expect(merged.metadata!.labels).toEqual({ rev: "2" });
    const strategic = await core.patchNamespacedPod(
      { namespace: "default", name: "patched", body: { spec: { containers: [{ name: "model", image: "vllm/vllm-openai:v0.11.1" }] } } },
      setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch),
    );
    expect(strategic.spec!.containers.map((c) => `${c.name}=${c.image}`)).toEqual(["model=vllm/vllm-openai:v0.11.1", "sidecar=envoy:v1"]);
    const json = await core.patchNamespacedPod({ namespace: "default", name: "patched", body: [{ op: "replace", path: "/metadata/labels/rev", value: "3" }] });
    expect(json.metadata!.labels).toEqual({ rev: "3" });
    const badPath = await failure(core.patchNamespacedPod({ namespace: "default", name: "patched", body: [{ op: "replace", path: "/metadata/annotations/x", value: "1" }] }));
    expect(badPath.code).toBe(422);
    const forbidden = await failure(core.patchNamespacedPod({ namespace: "default", name: "patched", body: [{ op: "add", path: "/spec/containers/0/ports", value: [{ containerPort: 80 }] }] }));
    expect(forbidden).toMatchObject({ code: 422, reason: "Invalid", details: { causes: [{ field: "spec", reason: "FieldValueForbidden" }] } });
  });

  it("an InferenceService takes merge and JSON patches but answers a strategic merge patch with 415", async () => {
    const custom = kc.makeApiClient(CustomObjectsApi);
    const target = { group: "serving.kserve.io", version: "v1beta1", namespace: "default", plural: "inferenceservices", name: "llama" };
    await custom.createNamespacedCustomObject({ ...target, body: isvc("llama") });
    const merged = (await custom.patchNamespacedCustomObject({ ...target, body: { spec: { predictor: { maxReplicas: 4 } } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch))) as {
      metadata: { generation: number };
      spec: { predictor: { maxReplicas: number; minReplicas: number } };
    };
    expect(merged.spec.predictor).toMatchObject({ minReplicas: 1, maxReplicas: 4 });
    expect(merged.metadata.generation).toBe(2);
    const status = await failure(custom.patchNamespacedCustomObject({ ...target, body: { spec: {} } }, setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch)));
    expect(status).toMatchObject({ code: 415, reason: "UnsupportedMediaType" });
    expect(status.message).toContain("application/merge-patch+json");
  });

  it("answers with the real status codes: 201 on create, 201 for an apply that creates and 200 for one that updates", async () => {
    const post = await fetch(`${standIn.url}/api/v1/namespaces/default/configmaps`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(configMap("codes")) });
    expect([post.status, post.headers.get("content-type")]).toEqual([201, "application/json"]);
    const applyTo = (name: string) =>
      fetch(`${standIn.url}/api/v1/namespaces/default/configmaps/${name}?fieldManager=kule`, {
        method: "PATCH",
        headers: { "Content-Type": "application/apply-patch+yaml" },
        body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  k: v\n`,
      });
    expect((await applyTo("applied")).status).toBe(201);
    expect((await applyTo("applied")).status).toBe(200);
    const put = await fetch(`${standIn.url}/api/v1/namespaces/default/configmaps/codes`, { method: "PUT", headers: { "Content-Type": "application/json" }, body: "{not json" });
    expect(put.status).toBe(400);
    expect((await fetch(`${standIn.url}/api/v1/namespaces/default/configmaps/codes`, { method: "DELETE" })).status).toBe(200);
    expect((await fetch(`${standIn.url}/apis/apps/v1/namespaces/default/statefulsets`)).status).toBe(404);
  });

  it("dryRun=All validates and answers without storing", async () => {
    const would = await core.createNamespacedConfigMap({ namespace: "default", body: configMap("dry"), dryRun: "All" });
    expect(would.metadata!.uid).toBeTruthy();
    expect(await failure(core.readNamespacedConfigMap({ namespace: "default", name: "dry" }))).toMatchObject({ code: 404 });
  });
});
