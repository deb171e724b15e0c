import { describe, expect, it } from "vitest";
import path from "node:path";
import { containersOf, renderKustomization, type Manifest } from "./render.ts";
import { deploymentManifest, inferenceServiceManifest, serviceManifest } from "../../server/cluster/kubernetes/workload.ts";
import { leaderWorkerSetManifest } from "../../server/cluster/kubernetes/leader-worker-set.ts";
import { schemaErrors as crdSchemaErrors } from "../../server/cluster/kubernetes/stand-in/schema-validation.ts";

type Model = new (data: unknown) => { validate(): void };

/** kubernetes-models' class for a manifest: its validator is generated from the Kubernetes OpenAPI schema. */
async function modelOf(m: { apiVersion: string; kind: string }): Promise<Model> {
  const models = (await import(`kubernetes-models/${m.apiVersion}`)) as Record<string, Model>;
  const cls = models[m.kind];
  if (!cls) throw new Error(`kubernetes-models has no ${m.apiVersion} ${m.kind}`);
  return cls;
}

async function schemaErrors(m: Manifest): Promise<string[]> {
  try {
    new (await modelOf(m))(m).validate();
    return [];
  } catch (e) {
    const errors = (e as { errors?: { instancePath: string; message?: string }[] }).errors;
    if (!errors) throw e;
    return errors.map((x) => `${m.kind}/${m.metadata.name}${x.instancePath}: ${x.message}`);
  }
}

const rendered = renderKustomization(path.join(import.meta.dirname));
const byKind = (kind: string) => rendered.filter((m) => m.kind === kind);
const get = (kind: string, name: string) => rendered.find((m) => m.kind === kind && m.metadata.name === name)!;

describe("deploy/kubernetes", () => {
  it("every rendered manifest passes the Kubernetes schema of its kind", async () => {
    expect(rendered.length).toBeGreaterThan(15);
    const errors = (await Promise.all(rendered.map(schemaErrors))).flat();
    expect(errors).toEqual([]);
  });

  it("runs the app and the gateways as several replicas, the gateways autoscaled, disruption-budgeted and sharing limits through Redis", () => {
    expect((get("Deployment", "kule-app").spec as { replicas: number }).replicas).toBeGreaterThanOrEqual(2);
    expect((get("Deployment", "kule-gateway").spec as { replicas: number }).replicas).toBeGreaterThanOrEqual(2);
    expect(get("HorizontalPodAutoscaler", "kule-gateway").spec).toMatchObject({ scaleTargetRef: { kind: "Deployment", name: "kule-gateway" }, minReplicas: 2 });
    expect(byKind("PodDisruptionBudget").map((p) => p.metadata.name).sort()).toEqual(["kule-app", "kule-gateway"]);
    expect(get("ConfigMap", "kule-config").data).toMatchObject({ REDIS_URL: expect.stringMatching(/^redis:/), KULE_CLUSTER_DRIVER: "kubernetes" });
    expect(Object.keys(get("Secret", "kule-secrets").stringData as object).sort()).toEqual(["AUTH_SECRET", "DATABASE_URL", "KULE_METRICS_TOKEN", "KULE_SPECIAL_SUBJECT_HASH_KEYS", "KULE_SUBJECT_HASH_KEY"]);
    expect(get("Job", "kule-migrate").spec).toMatchObject({ template: { spec: { containers: [{ command: expect.arrayContaining(["scripts/migrate.ts", "deploy"]) }] } } });
    for (const d of rendered) for (const c of containersOf(d)) expect(c.image).toBe("registry.example.com/kule:0.1.0");
  });

  it("opens the gateway pod's HTTP, gRPC and metrics ports to the network, and scrapes metrics where they are served", () => {
    const pod = (get("Deployment", "kule-gateway").spec as { template: { metadata: { annotations: Record<string, string> } } }).template;
    const [c] = containersOf(get("Deployment", "kule-gateway")) as unknown as { env: { name: string; value: string }[]; ports: { name: string; containerPort: number }[] }[];
    const env = Object.fromEntries(c!.env.map((e) => [e.name, e.value]));
    const port = Object.fromEntries(c!.ports.map((p) => [p.name, p.containerPort]));
    // A process bound to 127.0.0.1 is unreachable through a pod's ports.
    expect(env).toMatchObject({ KULE_GATEWAY_HOST: "0.0.0.0", KULE_GATEWAY_ADMIN_HOST: "0.0.0.0" });
    expect(port).toEqual({ http: Number(env.KULE_GATEWAY_PORT), grpc: Number(env.KULE_GATEWAY_GRPC_PORT), admin: Number(env.KULE_GATEWAY_ADMIN_PORT) });
    expect(Number(pod.metadata.annotations["prometheus.io/port"])).toBe(port.admin);
    expect((get("Service", "kule-gateway").spec as { ports: { targetPort: string }[] }).ports.map((p) => p.targetPort)).toEqual(["http", "grpc"]);
    const scrape = (get("ConfigMap", "kule-prometheus-scrape").data as Record<string, string>)["kule-scrape.yml"]!;
    expect(scrape).toMatch(/job_name: kule-gateway\n(.*\n){1,3}.*authorization: \{ type: Bearer, credentials_file:/);
  });

  it("grants the driver what it uses and no more: nodes cluster-wide, its own namespace, the MIG ConfigMap, node events", () => {
    const rules = (m: Manifest) => (m.rules as { resources: string[]; verbs: string[]; resourceNames?: string[] }[]).map((r) => `${r.resources.join(",")}:${[...r.verbs].sort().join(",")}${r.resourceNames ? `@${r.resourceNames.join(",")}` : ""}`);
    expect(byKind("ClusterRole").map((r) => [r.metadata.name, rules(r)])).toEqual([["kule-nodes", ["nodes:list,patch,watch"]]]);
    expect(byKind("Role").map((r) => [r.metadata.namespace, rules(r)])).toEqual([
      ["kule-replicas", ["pods:delete,list,patch,watch", "deployments:create,get,list,patch,watch", "services:create,get,patch", "inferenceservices:create,get,list,patch,watch", "leaderworkersets:create,delete"]],
      ["gpu-operator", ["configmaps:create,list,watch", "configmaps:get,patch@kule-mig-parted-config"]],
      ["default", ["events:list"]],
    ]);
    for (const b of [...byKind("RoleBinding"), ...byKind("ClusterRoleBinding")]) expect(b).toMatchObject({ subjects: [{ kind: "ServiceAccount", name: "kule-app", namespace: "kule" }] });
    expect(get("Deployment", "kule-gateway").spec).toMatchObject({ template: { spec: { automountServiceAccountToken: false } } });
  });

  it("what the driver writes into a cluster passes the schemas too", async () => {
    const spec = { id: "r", pool: "llm-h100", engine: "vllm" as const, endpointSlug: "chat", servedModelName: "llama-3.1-8b-instruct", versionId: "cmx0v", versionLabel: "1.0", task: "llm" as const, weightBytes: 8e9, parameterCount: 8e9, device: { kind: "gpu" as const, gpuUuid: "GPU-0" } };
    const o = { namespace: "kule-replicas", poolLabel: "kule.io/node-pool", port: 8000 };
    const written = [deploymentManifest(spec, { kind: "mig", profile: "3g.40gb" }, 2, o), deploymentManifest(spec, { kind: "gpus", count: 4 }, 1, o), serviceManifest(spec, { kind: "gpu" }, o)] as unknown as Manifest[];
    expect((await Promise.all(written.map(schemaErrors))).flat()).toEqual([]);
    expect(inferenceServiceManifest(spec, { kind: "gpu" }, 1, o).metadata.name).toMatch(/^kule-is-chat-[0-9a-f]{8}-gpu$/);
    // kubernetes-models has no LeaderWorkerSet: its CRD's schema (vendored in the stand-in) checks it, pod templates by kubernetes-models.
    const lws = leaderWorkerSetManifest(spec, { kind: "lws", nodes: 2, gpusPerNode: 8 }, o);
    expect(crdSchemaErrors(lws as never)).toEqual([]);
    expect(lws.metadata.name).toMatch(/^kule-chat-[0-9a-f]{8}-[0-9a-f]{6}-pp2x8$/);
  });
});
