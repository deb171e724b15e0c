import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type http from "node:http";
import { ownDatabase } from "../../test/own-db.ts";
import { SimCluster } from "../sim/cluster.ts";
import { startControlServer } from "../sim/control-server.ts";
import { referenceCluster } from "../sim/reference-cluster.ts";
import { SimDriver } from "../sim-driver.ts";
import { ExternalDriver } from "../external-driver.ts";
import { KubernetesDriver } from "./kubernetes-driver.ts";
import { defaultKubernetesSettings } from "./default-settings.ts";
import { startSimulatedKubernetes } from "./sim-bridge/simulated-kubernetes.ts";
import { discoverCluster, startClusterSync } from "../sync.ts";
import { seed, type SeedResult } from "../../../prisma/seed.ts";
import { startDemoReplicas } from "../../../scripts/lib/demo-replicas.ts";
import { Gateway } from "../../gateway/server.ts";
import { createCaller } from "../../routers/root.ts";
import { PrometheusClient } from "../../metrics/prometheus-client.ts";
import type { Drivers } from "../drivers.ts";
import type { StandIn } from "./stand-in/index.ts";

/**
 * The demo of `npm run demo -- --cluster kubernetes`, in one test file: the reference cluster
 * played by the simulator behind the Kubernetes stand-in, learned through the Kubernetes driver's
 * discovery, seeded, serving calls through the gateway; then a MIG change, a fault and a canary
 * with its rollback, all through the driver.
 */
let own: Awaited<ReturnType<typeof ownDatabase>>;
let cluster: SimCluster;
let control: { server: http.Server; url: string };
let standIn: StandIn & { stopFollowing: () => void };
let drivers: Drivers;
let stopSync: () => void;
let seeded: SeedResult;
let gateway: Gateway;
let gatewayPool: pg.Pool;
let base: string;

const wait = async <T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

async function operator() {
  const u = await own.db.user.findUniqueOrThrow({ where: { email: "operator@kule.local" }, include: { membership: true } });
  const actor = { userId: u.id, email: u.email, name: u.name, role: "operator" as const, tenantId: null };
  return createCaller({ db: own.db, actor, ip: "127.0.0.1", drivers, prometheus: new PrometheusClient(null) });
}

const chat = (secret: string) =>
  fetch(`${base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: JSON.stringify({ model: "chat", messages: [{ role: "user", content: "Merhaba!" }], max_tokens: 8 }) });

beforeAll(async () => {
  own = await ownDatabase("kule_k8s_demo");
  cluster = new SimCluster(referenceCluster(), { storageBandwidth: 1e11, latencyScale: 0.02 });
  control = await startControlServer(cluster, 0);
  standIn = await startSimulatedKubernetes(cluster, { migDelayMs: 200, msPerBackoffSecond: 100 });
  drivers = { sim: new SimDriver(control.url), external: new ExternalDriver(), kubernetes: new KubernetesDriver(standIn.kubeConfig(), defaultKubernetesSettings()) };
  await discoverCluster(own.db, drivers);
  seeded = await seed(own.db);
  stopSync = startClusterSync(own.db, drivers);
  await startDemoReplicas(own.db, drivers);
  gatewayPool = new pg.Pool({ connectionString: own.url, max: 4 });
  gatewayPool.on("error", () => {});
  gateway = new Gateway({ pool: gatewayPool, databaseUrl: own.url, spoolDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-k8s-spool-")), maxBodyBytes: 64 * 1024 });
  base = await gateway.listen(0);
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await gatewayPool?.end();
  stopSync?.();
  drivers?.kubernetes?.close();
  drivers?.external.close();
  standIn?.stopFollowing();
  await standIn?.stop();
  await cluster?.shutdown();
  await new Promise((r) => control?.server.close(r));
  await own?.close();
});

describe("the demo through the Kubernetes driver", () => {
  it("learns the reference cluster from Node objects and serves calls from pods", async () => {
    expect(seeded.counts).toMatchObject({ nodes: 11, gpus: 52 });
    const c = await own.db.cluster.findFirstOrThrow({ include: { nodePools: true } });
    expect(c).toMatchObject({ name: "kule-stand-in", driver: "kubernetes" });
    expect(c.nodePools.map((p) => `${p.name}:${p.region}`).sort()).toEqual(["cpu-ank:tr-ank", "eu-fra:eu-fra", "llm-h100:tr-ist", "vision-l40s:tr-ist"]);
    const mig = await own.db.gpu.findFirstOrThrow({ where: { node: { hostname: "gpu-llm-04" }, index: 7 }, include: { migInstances: { orderBy: { startSlot: "asc" } } } });
    expect(mig.migInstances.map((m) => `${m.profile}@${m.startSlot}`)).toEqual(["4g.40gb@0", "2g.20gb@4", "1g.10gb@6"]);

    const replicas = await own.db.replica.findMany({ where: { state: "ready" } });
    // The demo's three one-GPU replicas and chat-large's 70B group over four GPUs (one pod asking for all four).
    expect(replicas.length).toBe(4);
    expect(replicas.filter((r) => r.tensorParallel === 4)).toHaveLength(1);
    for (const r of replicas) expect(r).toMatchObject({ driver: "kubernetes", url: expect.stringMatching(/^http:\/\/127\.10\.\d+\.\d+:8000$/) });
    const res = await wait("the gateway to route chat", async () => {
      const r = await chat(seeded.apiKeys[0]!.secret);
      return r.status === 200 ? r : null;
    });
    expect(res.headers.get("x-kule-version")).toBe("1.0");
    const pods = standIn.api.list<{ metadata: { annotations?: Record<string, string> } }>("Pod", { namespace: "kule-replicas" });
    expect(pods.map((p) => p.metadata.annotations?.["kule.io/replica"]).sort()).toEqual(replicas.map((r) => r.id).sort());
    const group = pods.find((p) => p.metadata.annotations?.["kule.io/replica"] === replicas.find((r) => r.tensorParallel === 4)!.id) as { spec?: { containers: { resources: { limits: Record<string, string> } }[] } };
    expect(group.spec!.containers[0]!.resources.limits["nvidia.com/gpu"]).toBe("4");
  });

  it("lays out MIG through the node's MIG manager, following its state to the new layout", async () => {
    const api = await operator();
    const gpu = await own.db.gpu.findFirstOrThrow({ where: { node: { hostname: "gpu-llm-02" }, index: 0 } });
    await expect(api.cluster.applyMig({ gpuId: gpu.id, layout: [{ profile: "1g.10gb", startSlot: 6 }] })).rejects.toThrow(/chooses the slots itself.*1g\.10gb@0/);
    await api.cluster.applyMig({ gpuId: gpu.id, layout: [{ profile: "3g.40gb", startSlot: 0 }, { profile: "3g.40gb", startSlot: 4 }] });
    const pending = await own.db.node.findUniqueOrThrow({ where: { hostname: "gpu-llm-02" } });
    expect(pending).toMatchObject({ migState: "pending", migConfig: expect.stringMatching(/^kule-gpu-llm-02-/) });
    const node = await wait("the MIG manager to succeed", async () => {
      const n = await own.db.node.findUniqueOrThrow({ where: { hostname: "gpu-llm-02" }, include: { gpus: { where: { index: 0 }, include: { migInstances: true } } } });
      return n.migState === "success" && n.gpus[0]!.migInstances.length === 2 ? n : null;
    });
    expect(node.gpus[0]!.migEnabled).toBe(true);
    expect(standIn.api.get<{ metadata: { labels: Record<string, string> } }>("Node", undefined, "gpu-llm-02")!.metadata.labels["nvidia.com/mig.config"]).toBe(pending.migConfig);
    expect(cluster.inventory.node("gpu-llm-02").gpus[0]!.mig.map((m) => m.profile)).toEqual(["3g.40gb", "3g.40gb"]);
  });

  it("a killed engine shows as failed with its last words, and its pod's restart brings it back", async () => {
    const api = await operator();
    const replica = await own.db.replica.findFirstOrThrow({ where: { state: "ready", endpointVersion: { endpoint: { slug: "chat" } } } });
    await api.cluster.injectFault({ type: "kill-replica", replicaId: replica.id });
    const failed = await wait("the replica to fail", async () => {
      const r = await own.db.replica.findUniqueOrThrow({ where: { id: replica.id } });
      return r.state === "failed" ? r : null;
    });
    expect(failed.reason).toMatch(/Crash loop: the engine exited with code 1: Engine process exited unexpectedly \(killed by signal 9\)\. Restarted 1 time/);
    await wait("the restarted replica to be ready", async () => (await own.db.replica.findUniqueOrThrow({ where: { id: replica.id } })).state === "ready");
  });

  it("deploys a canary, splits traffic to it, and rolls back", async () => {
    const api = await operator();
    const endpoint = await own.db.endpoint.findUniqueOrThrow({ where: { slug: "chat" }, include: { model: { include: { versions: true } } } });
    const next = endpoint.model.versions.find((v) => v.version === "1.1")!;
    await api.rollout.deploy({ endpointId: endpoint.id, modelVersionId: next.id, replicas: 1, expectedRevision: endpoint.revision });
    const canary = await wait("the canary to be ready", async () => own.db.endpointVersion.findFirst({ where: { endpointId: endpoint.id, modelVersionId: next.id, state: "ready" } }));
    const stable = await own.db.endpointVersion.findFirstOrThrow({ where: { endpointId: endpoint.id, weight: 100 } });
    let revision = (await own.db.endpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).revision;
    await api.rollout.setWeights({ endpointId: endpoint.id, expectedRevision: revision, weights: [{ endpointVersionId: stable.id, weight: 50 }, { endpointVersionId: canary.id, weight: 50 }] });
    const served = new Set<string>();
    await wait("both versions to answer", async () => {
      const r = await chat(seeded.apiKeys[0]!.secret);
      if (r.status === 200) served.add(r.headers.get("x-kule-version")!);
      return served.size === 2;
    });
    revision = (await own.db.endpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).revision;
    await api.rollout.rollback({ endpointId: endpoint.id, expectedRevision: revision });
    expect((await own.db.endpointVersion.findUniqueOrThrow({ where: { id: stable.id } })).weight).toBe(100);
    const canaryPod = standIn.api.list<{ metadata: { labels?: Record<string, string> } }>("Pod", { namespace: "kule-replicas" }).filter((p) => p.metadata.labels?.["kule.io/version-id"] === canary.id);
    expect(canaryPod).toHaveLength(1);
  });
});
