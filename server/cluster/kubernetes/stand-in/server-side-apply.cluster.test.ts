import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KubernetesObjectApi, PatchStrategy, type KubeConfig, type KubernetesObject } from "@kubernetes/client-node";
import { startStandIn, type StandIn } from "./index.ts";
import { failure } from "./test-kit.ts";

let standIn: StandIn;
let kc: KubeConfig;
let objects: KubernetesObjectApi;

beforeAll(async () => {
  standIn = await startStandIn({ kubelet: false, migApplier: false, scheduler: false });
  kc = standIn.kubeConfig();
  objects = KubernetesObjectApi.makeApiClient(kc);
});
afterAll(() => standIn.stop());

type Applied = KubernetesObject & { spec?: Record<string, unknown>; data?: Record<string, string>; metadata: NonNullable<KubernetesObject["metadata"]> & { generation?: number } };

/** Server-side apply as a reconciler does it: KubernetesObjectApi.patch with the apply content type. */
const apply = (obj: Applied, manager: string, force = false) => objects.patch(obj, undefined, undefined, manager, force, PatchStrategy.ServerSideApply) as Promise<Applied>;

const llama = (minReplicas: number): Applied => ({
  apiVersion: "serving.kserve.io/v1beta1",
  kind: "InferenceService",
  metadata: { name: "llama", namespace: "default", labels: { "kule.io/endpoint": "llama" } },
  spec: { predictor: { minReplicas, model: { modelFormat: { name: "huggingface" }, storageUri: "hf://meta-llama/Llama-3.1-8B" } } },
});

describe("server-side apply", () => {
  it("creates a missing object, and applying the same object again changes nothing", async () => {
    const first = await apply(llama(1), "kule");
    expect(first.metadata.generation).toBe(1);
    const revision = standIn.store.revision;
    const second = await apply(llama(1), "kule");
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    expect(standIn.store.revision).toBe(revision);
    const third = await apply(llama(2), "kule");
    expect(Number(third.metadata.resourceVersion)).toBeGreaterThan(Number(first.metadata.resourceVersion));
    expect(third.metadata.generation).toBe(2);
    expect(third.metadata.managedFields).toEqual([expect.objectContaining({ manager: "kule", operation: "Apply", apiVersion: "serving.kserve.io/v1beta1" })]);
  });

  it("removes what a manager stops applying, but not what another manager owns", async () => {
    const cm = (labels: Record<string, string>, data: Record<string, string>): Applied => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "owned", namespace: "default", labels }, data });
    await apply(cm({ a: "1", b: "1" }, { x: "1", y: "1" }), "kule");
    await apply(cm({ c: "1" }, {}), "operator");
    const after = await apply(cm({ a: "1" }, { x: "1" }), "kule");
    expect(after.metadata.labels).toEqual({ a: "1", c: "1" });
    expect(after.data).toEqual({ x: "1" });
  });

  it("makes two managers setting one field to different values conflict, naming the field, until one forces", async () => {
    const deployment = (replicas: number): Applied => ({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "shared", namespace: "default" },
      spec: { replicas, selector: { matchLabels: { app: "shared" } }, template: { metadata: { labels: { app: "shared" } }, spec: { containers: [{ name: "model", image: "vllm" }] } } },
    });
    await apply(deployment(1), "kule");
    const conflict = await failure(apply(deployment(3), "autoscaler"));
    expect(conflict).toMatchObject({ code: 409, reason: "Conflict", details: { causes: [{ reason: "FieldManagerConflict", field: ".spec.replicas" }] } });
    expect(conflict.message).toBe('Apply failed with 1 conflict: conflict with "kule" using apps/v1: .spec.replicas');
    const forced = await apply(deployment(3), "autoscaler", true);
    expect(forced.spec!.replicas).toBe(3);
    const owners = forced.metadata.managedFields!.map((m) => [m.manager, JSON.stringify(m.fieldsV1).includes('"f:replicas"')]);
    expect(owners).toEqual([["kule", false], ["autoscaler", true]]);
  });

  it("needs a field manager (422) and never touches status", async () => {
    expect(await failure(objects.patch(llama(1), undefined, undefined, undefined, undefined, PatchStrategy.ServerSideApply))).toMatchObject({
      code: 422,
      details: { causes: [{ field: "fieldManager" }] },
    });
    standIn.api.mutate("InferenceService", "default", "llama", (o) => void (o.status = { url: "http://llama.default.example.com" }), { status: true });
    const applied = await apply({ ...llama(2), status: { url: "http://elsewhere" } } as Applied, "kule");
    expect((applied as { status?: { url?: string } }).status?.url).toBe("http://llama.default.example.com");
  });
});
