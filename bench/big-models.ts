/**
 * Big models: group replicas on the simulator playing the reference cluster (four nodes of eight
 * H100s), through the control plane's own deploy path, with a gateway in this process. Writes
 * bench/results/big-models.json:
 *
 * - tp4_ready_s: a 70B bf16 version (TP 4, proposed from its card) from deploy to ready;
 * - multi_node_ready_s: a 405B-class FP8 version (PP 2 × TP 8 over two nodes) from deploy to ready;
 * - rollout_failed_requests: calls that failed while a second TP 4 version loaded, took a canary
 *   share, was rolled back and removed, under a steady load;
 * - fragmentation_refusals: bench/fragmentation.ts, Kule's placer against a spreading one.
 *
 * Weights load at 8 GB/s per node (local NVMe): each node of a pipeline loads its own stages.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createDb } from "../server/db/client.ts";
import { deployMigrations } from "../scripts/migrate.ts";
import { createScratchDatabase, dropDatabase } from "../scripts/lib/database.ts";
import { SimCluster } from "../server/cluster/sim/cluster.ts";
import { startControlServer } from "../server/cluster/sim/control-server.ts";
import { referenceCluster } from "../server/cluster/sim/reference-cluster.ts";
import { SimDriver } from "../server/cluster/sim-driver.ts";
import { ExternalDriver } from "../server/cluster/external-driver.ts";
import { discoverCluster, startClusterSync } from "../server/cluster/sync.ts";
import { Gateway } from "../server/gateway/server.ts";
import { apiKeyRecord } from "../server/auth/api-key-secret.ts";
import { deployVersion, removeVersion, rollbackEndpoint } from "../server/rollouts/actions.ts";
import { setWeights } from "../server/rollouts/weights.ts";
import type { PrismaClient } from "../server/db/generated/client.ts";
import { openLoop } from "./capacity-load.ts";
import { fragmentationRuns, kulePlacer, spreadPlacer } from "./fragmentation.ts";
import { writeResult } from "./lib.ts";

const SECRET = "kule_benchbigmodelsbigmodelsbigmodels0000";
const ACTOR = { userId: "bench", email: "bench@kule.local", name: "Bench", role: "operator" as const, tenantId: null };
const STORAGE_BYTES_PER_S = 8e9;
const LOAD_RPS = 3;

const card = { layers: 80, kvHeads: 8, headDim: 128 };
const version = (v: string, over: Record<string, unknown> = {}) => ({ version: v, artifactUri: `s3://bench/large/${v}`, format: "vllm" as const, precision: "bf16" as const, parameterCount: 70_600_000_000n, weightBytes: 141_200_000_000n, minGpuMemoryBytes: 0n, contextTokens: 8192, maxBatch: 8, ...card, ...over });

async function until(what: string, ok: () => Promise<boolean>, ms = 180_000) {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (await ok()) return;
  throw new Error(`timed out waiting: ${what}`);
}
const readyCount = (db: PrismaClient, endpointVersionId: string) => db.replica.count({ where: { endpointVersionId, state: "ready" } });

export async function benchBigModels() {
  const fragmentation = { kule: fragmentationRuns(kulePlacer, { streams: 2000, nodes: 4, perNode: 8, seed: 7 }), spread: fragmentationRuns(spreadPlacer, { streams: 2000, nodes: 4, perNode: 8, seed: 7 }) };
  const server = await resolveDatabaseUrl();
  const databaseUrl = await createScratchDatabase(server.url, "kule_bench_big_models");
  const cluster = new SimCluster(referenceCluster(), { storageBandwidth: STORAGE_BYTES_PER_S, latencyScale: 1 });
  const sim = await startControlServer(cluster, 0);
  const db = createDb(databaseUrl);
  const drivers = { sim: new SimDriver(sim.url), external: new ExternalDriver() };
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
  const gateway = new Gateway({ pool, databaseUrl, spoolDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-bench-spool-")), maxBodyBytes: 64 * 1024, cooldown: { failures: 3, ms: 2000 } });
  let stopSync = () => {};
  try {
    await deployMigrations(databaseUrl);
    await discoverCluster(db, drivers);
    stopSync = startClusterSync(db, drivers);
    const ctx = { db, actor: ACTOR, ip: null, drivers };
    const tenant = await db.tenant.create({ data: { name: "Bench", slug: "bench" } });
    await db.apiKey.create({ data: { tenantId: tenant.id, name: "bench", prefix: apiKeyRecord(SECRET).prefix, secretHash: apiKeyRecord(SECRET).hash } });
    const llm = await db.nodePool.findFirstOrThrow({ where: { name: "llm-h100" } });
    const model = await db.model.create({
      data: { name: "bench-large", task: "llm", versions: { create: [version("1.0"), version("1.1"), version("2.0", { precision: "fp8", parameterCount: 405_000_000_000n, weightBytes: 405_000_000_000n, contextTokens: 32768, maxBatch: 16, layers: 126 })] } },
      include: { versions: { orderBy: { version: "asc" } } },
    });
    const [v10, v11, v20] = model.versions;
    const endpoint = await db.endpoint.create({ data: { name: "large", slug: "large", modelId: model.id, engine: "vllm", nodePoolId: llm.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 10_000 } });

    // 1. TP 4: the endpoint's first version, deploy to ready.
    const t0 = Date.now();
    const first = await deployVersion(ctx, { endpointId: endpoint.id, modelVersionId: v10!.id, replicas: 1, expectedRevision: endpoint.revision });
    const firstEv = first.endpoint.versions.find((v) => v.modelVersion.id === v10!.id)!;
    await until("TP 4 ready", async () => (await readyCount(db, firstEv.id)) === 1);
    const tp4ReadyS = (Date.now() - t0) / 1000;
    const group = await db.replica.findFirstOrThrow({ where: { endpointVersionId: firstEv.id }, include: { gpus: { include: { gpu: { include: { node: true } } } } } });
    const rev = async () => (await db.endpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).revision;
    await setWeights(ctx, { endpointId: endpoint.id, expectedRevision: await rev(), weights: [{ endpointVersionId: firstEv.id, weight: 100 }] });
    const url = await gateway.listen(0);
    await gateway.config.reload();

    // 2. A rollout across groups under load: 1.1 beside it, 20% canary, rollback, removed.
    const load = openLoop({ url, secret: SECRET, slug: "large", seconds: 90, stream: true, rate: () => LOAD_RPS });
    const second = await deployVersion(ctx, { endpointId: endpoint.id, modelVersionId: v11!.id, replicas: 1, expectedRevision: await rev() });
    const secondEv = second.endpoint.versions.find((v) => v.modelVersion.id === v11!.id)!;
    await until("1.1 ready", async () => (await readyCount(db, secondEv.id)) === 1);
    await setWeights(ctx, { endpointId: endpoint.id, expectedRevision: await rev(), weights: [{ endpointVersionId: firstEv.id, weight: 80 }, { endpointVersionId: secondEv.id, weight: 20 }] });
    await new Promise((r) => setTimeout(r, 30_000));
    await rollbackEndpoint(ctx, { endpointId: endpoint.id, expectedRevision: await rev() });
    await new Promise((r) => setTimeout(r, 5_000));
    await removeVersion(ctx, { endpointId: endpoint.id, endpointVersionId: secondEv.id, expectedRevision: await rev(), drainTimeoutSeconds: 5 }).catch((err: unknown) => console.warn(`remove 1.1: ${(err as Error).message}`));
    const results = await load;

    // 3. PP 2 × TP 8: the 405B-class version beside them, on two whole nodes.
    const m0 = Date.now();
    const big = await deployVersion(ctx, { endpointId: endpoint.id, modelVersionId: v20!.id, replicas: 1, expectedRevision: await rev() });
    const bigEv = big.endpoint.versions.find((v) => v.modelVersion.id === v20!.id)!;
    await until("PP 2 × TP 8 ready", async () => (await readyCount(db, bigEv.id)) === 1);
    const multiNodeReadyS = (Date.now() - m0) / 1000;
    const bigReplica = await db.replica.findFirstOrThrow({ where: { endpointVersionId: bigEv.id }, include: { gpus: { include: { gpu: { include: { node: true } } } } } });
    // A second one does not fit what is left (the 70B holds part of a node): refused, naming the shortfall.
    const refusal = await deployVersion(ctx, { endpointId: endpoint.id, modelVersionId: v20!.id, replicas: 2, expectedRevision: await rev() }).then(() => null, (err: unknown) => (err as Error).message);

    writeResult("big-models", {
      tp4_ready_s: Number(tp4ReadyS.toFixed(1)),
      tp4_group: group.gpus.map((g) => `${g.gpu.node.hostname} GPU ${g.gpu.index}`).sort(),
      multi_node_ready_s: Number(multiNodeReadyS.toFixed(1)),
      multi_node_group: { pipeline: bigReplica.pipelineParallel, tensor: bigReplica.tensorParallel, nodes: [...new Set(bigReplica.gpus.map((g) => g.gpu.node.hostname))].sort() },
      storage_bytes_per_s_per_node: STORAGE_BYTES_PER_S,
      rollout: { rps: LOAD_RPS, seconds: 90, requests: results.length, steps: "1.1 deployed as TP 4 beside 1.0, 20% canary for 30 s, rollback, 1.1 removed" },
      rollout_failed_requests: results.filter((r) => r.status !== 200).length,
      fragmentation_refusals: fragmentation.kule.fragmentation_refusals,
      fragmentation: { ...fragmentation, how: "random streams of 1/2/4/8-GPU replicas on 4 nodes of 8 GPUs until the first refusal; a refusal counts when first-fit decreasing would have fitted every replica of the stream (optimal for power-of-two sizes): a better choice existed. 'spread' is a scheduler's default LeastAllocated scoring." },
      second_405b_refusal: refusal,
      targets: { fragmentation_refusals: 0, rollout_failed_requests: 0 },
    });
  } finally {
    stopSync();
    await gateway.close().catch(() => {});
    await cluster.shutdown();
    await new Promise((r) => sim.server.close(r));
    drivers.external.close();
    await pool.end();
    await db.$disconnect();
    await dropDatabase(databaseUrl).catch(() => {});
    await server.stop();
  }
}
