/**
 * The Kubernetes driver at fleet scale, on the stand-in: 125 simulated nodes (1,000 GPUs) behind
 * Kule's Kubernetes API stand-in, learned by discovery; 200 replicas started and stopped through
 * Kule's own domain functions; MIG changes through the MIG manager; watches expired. Writes
 * bench/results/kubernetes.json (the cluster page figure comes from bench/cluster-page.ts).
 */
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createDb } from "../server/db/client.ts";
import { deployMigrations } from "../scripts/migrate.ts";
import { createScratchDatabase, dropDatabase } from "../scripts/lib/database.ts";
import { SimCluster } from "../server/cluster/sim/cluster.ts";
import { startControlServer } from "../server/cluster/sim/control-server.ts";
import { fleetTopology } from "../server/cluster/sim/topology-file.ts";
import { startSimulatedKubernetes } from "../server/cluster/kubernetes/sim-bridge/simulated-kubernetes.ts";
import { KubernetesDriver } from "../server/cluster/kubernetes/kubernetes-driver.ts";
import { defaultKubernetesSettings } from "../server/cluster/kubernetes/default-settings.ts";
import { SimDriver } from "../server/cluster/sim-driver.ts";
import { ExternalDriver } from "../server/cluster/external-driver.ts";
import { discoverCluster, startClusterSync } from "../server/cluster/sync.ts";
import { startReplica, stopReplica } from "../server/cluster/replicas.ts";
import { placeReplicas } from "../server/cluster/placement.ts";
import { applyMigLayout } from "../server/cluster/operations.ts";
import { KULE } from "../server/cluster/kubernetes/kube-types.ts";
import { writeResult } from "./lib.ts";

const REPLICAS = 200;
const MIG_CHANGES = 20;
const ACTOR = { userId: "bench", email: "bench@kule.local", name: "Bench", role: "operator" as const, tenantId: null };

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.99) - 1)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export async function benchKubernetes() {
  const server = await resolveDatabaseUrl();
  const url = await createScratchDatabase(server.url, "kule_bench_k8s");
  await deployMigrations(url);
  const db = createDb(url);
  const cluster = new SimCluster(fleetTopology(125), { storageBandwidth: 1e15, latencyScale: 0 });
  const control = await startControlServer(cluster, 0);
  const standIn = await startSimulatedKubernetes(cluster, { migDelayMs: 0, msPerBackoffSecond: 10 });
  // When each pod turned Ready in the API server, by the replica it serves.
  const podReadyAt = new Map<string, number>();
  const offStore = standIn.store.subscribe((e) => {
    const pod = e.object as { kind?: string; metadata: { annotations?: Record<string, string> }; status?: { conditions?: { type: string; status: string }[] } };
    const id = pod.metadata.annotations?.[KULE.replica];
    if (e.kind.kind !== "Pod" || !id || podReadyAt.has(id)) return;
    if (pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True")) podReadyAt.set(id, Date.now());
  });
  let stopSync = () => {};
  const kubernetes = new KubernetesDriver(standIn.kubeConfig(), defaultKubernetesSettings());
  const drivers = { sim: new SimDriver(control.url), external: new ExternalDriver(), kubernetes };
  try {
    const t0 = performance.now();
    await discoverCluster(db, drivers);
    const initialSyncMs = performance.now() - t0;
    stopSync = startClusterSync(db, drivers);
    const [nodes, gpus] = await Promise.all([db.node.count(), db.gpu.count()]);

    // Ten endpoints of one version each, on two of the five pools, twenty replicas apiece.
    const pools = await db.nodePool.findMany({ where: { name: { in: ["h100-01", "l40s-02"] } } });
    const model = await db.model.create({ data: { name: "bench-llm", task: "llm", versions: { create: { version: "1.0", artifactUri: "s3://b/1", format: "vllm", precision: "fp8", parameterCount: 8_000_000_000n, weightBytes: 8_000_000_000n, minGpuMemoryBytes: 9_600_000_000n } } }, include: { versions: true } });
    const versions = [];
    for (let i = 0; i < 10; i++) {
      const e = await db.endpoint.create({
        data: { name: `Bench ${i}`, slug: `bench-${i}`, modelId: model.id, engine: "vllm", nodePoolId: pools[i % 2]!.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 2000, versions: { create: { modelVersionId: model.versions[0]!.id, weight: 100, state: "pending" } } },
        include: { versions: true },
      });
      versions.push({ id: e.versions[0]!.id, poolId: e.nodePoolId });
    }
    const ctx = { db, actor: ACTOR, ip: null, drivers };
    const requestsBefore = kubernetes.client.requests;
    const ids: string[] = [];
    for (let i = 0; i < REPLICAS; i++) {
      const v = versions[i % versions.length]!;
      const [place] = (await placeReplicas(db, v.id, 1)).chosen;
      ids.push((await startReplica(ctx, { endpointVersionId: v.id, device: place!.device }, { placementReason: place!.reason })).id);
    }
    await until("every replica ready in the table", async () => (await db.replica.count({ where: { id: { in: ids }, state: "ready" } })) === REPLICAS);
    const startRequests = kubernetes.client.requests - requestsBefore;
    const rows = await db.replica.findMany({ where: { id: { in: ids } }, select: { id: true, readyAt: true, gpuId: true } });
    const readyToTable = rows.map((r) => r.readyAt!.getTime() - podReadyAt.get(r.id)!);
    const gpusUsed = new Set(rows.map((r) => r.gpuId)).size;

    // MIG on idle nodes of the H100 pools no endpoint uses.
    const idle = await db.gpu.findMany({ where: { index: 0, node: { nodePool: { name: { in: ["h100-03", "h100-05"] } } } }, take: MIG_CHANGES, orderBy: { node: { hostname: "asc" } } });
    const migMs: number[] = [];
    for (const g of idle) {
      const t = performance.now();
      await applyMigLayout(ctx, { gpuId: g.id, layout: [{ profile: "3g.40gb", startSlot: 0 }, { profile: "3g.40gb", startSlot: 4 }] });
      await until("the new layout in the table", async () => (await db.migInstance.count({ where: { gpuId: g.id } })) === 2);
      migMs.push(performance.now() - t);
    }

    // Every watch expired at once: one relist each, and nothing missed.
    const relistsBefore = kubernetes.reflectors.reduce((n, r) => n + r.relists, 0);
    standIn.compact();
    standIn.expireWatches();
    await sleep(1500);
    const relists = kubernetes.reflectors.reduce((n, r) => n + r.relists, 0) - relistsBefore;

    const stopBefore = kubernetes.client.requests;
    for (const id of ids) {
      try {
        await stopReplica({ ...ctx }, { replicaId: id });
      } catch (e) {
        const pg = (await import("pg")).default;
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        console.log((await c.query(`SELECT pid, state, wait_event_type, wait_event, now()-xact_start AS age, left(query,120) q FROM pg_stat_activity WHERE datname = current_database()`)).rows);
        await c.end();
        throw e;
      }
    }
    const stopRequests = kubernetes.client.requests - stopBefore;

    writeResult("kubernetes", {
      nodes,
      gpus,
      replicas: REPLICAS,
      replica_gpus: gpusUsed,
      initial_sync_ms: Math.round(initialSyncMs),
      pod_ready_to_table_ms_p50: [...readyToTable].sort((a, b) => a - b)[Math.floor(readyToTable.length / 2)],
      pod_ready_to_table_ms_p99: p99(readyToTable),
      target_pod_ready_to_table_ms_p99: 1000,
      mig_changes: MIG_CHANGES,
      mig_change_to_layout_ms_p99: Math.round(p99(migMs)),
      mig_manager_delay_ms: 0,
      api_requests_per_replica_change: Number(((startRequests + stopRequests) / (2 * REPLICAS)).toFixed(2)),
      api_requests_per_replica_start: Number((startRequests / REPLICAS).toFixed(2)),
      api_requests_per_replica_stop: Number((stopRequests / REPLICAS).toFixed(2)),
      target_api_requests_per_replica_change: 3,
      watches: kubernetes.reflectors.length,
      relists_after_410: relists,
      note: "One process holds the stand-in, the simulator's 200 engines and Kule's driver and sync, on the machine's shared cores; requests are the driver's own (writes, lists and watches).",
    });
  } finally {
    offStore();
    stopSync();
    // Let the sync finish what it had queued before the database goes.
    await sleep(1000);
    kubernetes.close();
    drivers.external.close();
    standIn.stopFollowing();
    await standIn.stop();
    await cluster.shutdown();
    await new Promise((r) => control.server.close(r));
    await db.$disconnect();
    await dropDatabase(url);
    await server.stop();
  }
}

