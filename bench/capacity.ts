/**
 * Capacity: the autoscaler under a 1× → 5× load step, scale from zero, and a MIG change of a busy
 * GPU, on the simulator (real latency model, scale 1; cold starts shortened by a small model:
 * 4 GB of weights at 4 GB/s, about 1.5 s) with a gateway and the control plane's loops in this
 * process. Writes bench/results/capacity.json. The autoscaler reads its signal from the
 * replicas' own vLLM /metrics here (no Prometheus between: a scrape interval would add to it).
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
import { smallTopology } from "../server/cluster/sim/fixtures.ts";
import { SimDriver } from "../server/cluster/sim-driver.ts";
import { ExternalDriver } from "../server/cluster/external-driver.ts";
import { discoverCluster, startClusterSync } from "../server/cluster/sync.ts";
import { Gateway } from "../server/gateway/server.ts";
import { apiKeyRecord } from "../server/auth/api-key-secret.ts";
import { startAutoscaler, type SignalReader } from "../server/autoscale/loop.ts";
import { setPolicy } from "../server/autoscale/policy.ts";
import { startReplica, stopReplica } from "../server/cluster/replicas.ts";
import { MigChangeWorker, startMigChange } from "../server/cluster/mig-change.ts";
import type { PrismaClient } from "../server/db/generated/client.ts";
import { backInSlo, dailyRate, DAY_SHAPE, FleetMeter, openLoop, oscillations, p99, peakFleet } from "./capacity-load.ts";
import { writeResult } from "./lib.ts";

const SECRET = "kule_benchcapacitycapacitycapacity0000000";
const ACTOR = { userId: "bench", email: "bench@kule.local", name: "Bench", role: "operator" as const, tenantId: null };
const TTFT_SLO_MS = 500;
const BASE_RPS = 8;
const [LOW_S, HIGH_S, AFTER_S] = [20, 120, 80];
/** The compressed day: 20 s an hour, so 8 minutes; its scale-down window shrinks with it (10 s, half an hour of the day). */
const HOUR_MS = 20_000;
const DAY_DOWN_WINDOW_S = 10;
/**
 * The day's per-replica target: at 12 (the step's) the 5× peak needed three replicas, and a fleet
 * moving in thirds of the peak cannot follow a daily shape; at 5 it needs six or seven, as a real
 * fleet serving a day runs many. The fixed fleet it is measured against uses the same target.
 */
const DAY_TARGET = 5;
const DAY_MAX = 10;

/** Calls waiting (and running, for the in-flight signal) on a version's ready replicas, from each one's vLLM exposition. */
async function replicaCalls(db: PrismaClient, versionId: string, running: boolean) {
  const rows = await db.replica.findMany({ where: { endpointVersionId: versionId, state: "ready" }, select: { url: true } });
  let total = 0;
  for (const r of rows) {
    const text = await (await fetch(`${r.url}/metrics`)).text();
    const read = (name: string) => Number(new RegExp(`^vllm:${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1] ?? 0);
    total += read("num_requests_waiting") + (running ? read("num_requests_running") : 0);
  }
  return total;
}

/** The signal straight from the replicas: per ready replica. */
const replicaSignal = (db: PrismaClient): SignalReader => async (signal, versionId, ready) => (ready ? (await replicaCalls(db, versionId, signal === "in_flight_per_replica")) / ready : null);

/** The small topology with three more nodes of two H100s in the llm pool: room for the day's peak (one replica per device). */
function benchTopology() {
  const t = smallTopology();
  const llm = t.pools.find((p) => p.name === "llm")!;
  const template = llm.nodes[0]!;
  for (const host of ["llm-3", "llm-4", "llm-5"]) llm.nodes.push({ ...template, hostname: host, gpus: template.gpus.map((g) => ({ ...g, uuid: `GPU-${host}-${g.index}` })) });
  return t;
}

async function endpoint(db: PrismaClient, slug: string) {
  const pool = await db.nodePool.findFirstOrThrow({ where: { name: "llm" } });
  const model = await db.model.create({ data: { name: `bench-${slug}`, task: "llm", versions: { create: { version: "1.0", artifactUri: "s3://bench/1", format: "vllm", precision: "fp8", parameterCount: 1_000_000_000n, weightBytes: 4_000_000_000n, minGpuMemoryBytes: 4_800_000_000n } } }, include: { versions: true } });
  const e = await db.endpoint.create({ data: { name: slug, slug, modelId: model.id, engine: "vllm", nodePoolId: pool.id, sloAvailabilityPct: "99.9", sloP99LatencyMs: 10_000, sloTtftMs: TTFT_SLO_MS, versions: { create: { modelVersionId: model.versions[0]!.id, weight: 100, state: "pending", lastFullAt: new Date() } } }, include: { versions: true } });
  return { endpointId: e.id, versionId: e.versions[0]!.id };
}

const policy = (endpointVersionId: string, over: { enabled: boolean; minReplicas: number; maxReplicas: number; expectedRevision?: number; scaleDownWindowSeconds?: number; target?: number }) => ({ endpointVersionId, signal: "in_flight_per_replica" as const, target: 12, scaleUpWindowSeconds: 0, scaleDownWindowSeconds: 30, ...over });

/** GPUs held by the version's replicas (a group holds several): starting, serving, or draining their last calls before they stop. */
const live = async (db: PrismaClient, versionId: string) =>
  (await db.replica.findMany({ where: { endpointVersionId: versionId, state: { in: ["pending", "loading", "ready", "draining"] } }, select: { tensorParallel: true, pipelineParallel: true } })).reduce((n, r) => n + r.tensorParallel * r.pipelineParallel, 0);
const until = async (what: string, ok: () => Promise<boolean>, ms = 60_000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) if (await ok()) return;
  throw new Error(`timed out waiting: ${what}`);
};

export async function benchCapacity() {
  const server = await resolveDatabaseUrl();
  const databaseUrl = await createScratchDatabase(server.url, "kule_bench_capacity");
  const cluster = new SimCluster(benchTopology(), { storageBandwidth: 4e9, latencyScale: 1 });
  const sim = await startControlServer(cluster, 0);
  const db = createDb(databaseUrl);
  const drivers = { sim: new SimDriver(sim.url), external: new ExternalDriver() };
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
  let stopSync = () => {};
  let autoscaler: ReturnType<typeof startAutoscaler> | null = null;
  const gateway = new Gateway({ pool, databaseUrl, spoolDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-bench-spool-")), maxBodyBytes: 64 * 1024, cooldown: { failures: 3, ms: 2000 } });
  try {
    await deployMigrations(databaseUrl);
    await discoverCluster(db, drivers);
    stopSync = startClusterSync(db, drivers);
    const tenant = await db.tenant.create({ data: { name: "Bench", slug: "bench" } });
    await db.apiKey.create({ data: { tenantId: tenant.id, name: "bench", prefix: apiKeyRecord(SECRET).prefix, secretHash: apiKeyRecord(SECRET).hash } });
    const url = await gateway.listen(0);
    const ctx = { db, actor: ACTOR, ip: null, drivers };
    autoscaler = startAutoscaler({ db, drivers, signal: replicaSignal(db) }, 1000);

    // 1. The load step, autoscaler on with a warm floor of 1.
    const step = await endpoint(db, "step");
    await setPolicy(ctx, policy(step.versionId, { enabled: true, minReplicas: 1, maxReplicas: 4 }));
    await until("the warm floor ready", async () => (await db.replica.count({ where: { endpointVersionId: step.versionId, state: "ready" } })) === 1);
    await gateway.config.reload();
    const meter = new FleetMeter(() => live(db, step.versionId));
    const metering = setInterval(() => void meter.sample(), 1000);
    const t0 = Date.now();
    const results = await openLoop({ url, secret: SECRET, slug: "step", seconds: LOW_S + HIGH_S + AFTER_S, stream: true, rate: (t) => (t >= LOW_S * 1000 && t < (LOW_S + HIGH_S) * 1000 ? 5 * BASE_RPS : BASE_RPS) });
    clearInterval(metering);
    const stepAt = t0 + LOW_S * 1000;
    const decisions = await db.auditEvent.findMany({ where: { action: "autoscale.decision", targetId: step.versionId }, orderBy: { at: "asc" } });
    const acts = decisions.map((d) => ({ at: d.at.getTime(), action: (d.after as { action: string }).action }));
    const inPhase = (a: number, b: number) => acts.filter((x) => x.at >= a && x.at < b).map((x) => x.action);
    // Steady load: the high stretch after its first minute, and the low stretch after the scale-down window.
    const steady = oscillations(inPhase(stepAt + 60_000, stepAt + HIGH_S * 1000)) + oscillations(inPhase(stepAt + (HIGH_S + 45) * 1000, t0 + (LOW_S + HIGH_S + AFTER_S) * 1000));
    const slo = backInSlo(results, stepAt, stepAt + HIGH_S * 1000, TTFT_SLO_MS);
    const runS = (Date.now() - t0) / 1000;
    const stepDecisions = decisions.map((d) => `${d.at.getTime() >= t0 ? "+" : ""}${((d.at.getTime() - t0) / 1000).toFixed(0)} s ${(d.after as { reason: string }).reason}`);
    await setPolicy(ctx, policy(step.versionId, { enabled: false, minReplicas: 0, maxReplicas: 4, expectedRevision: 1 }));
    for (const r of await db.replica.findMany({ where: { endpointVersionId: step.versionId, state: { not: "stopped" } } })) await stopReplica(ctx, { replicaId: r.id });

    // 2. A compressed day (night low, afternoon peak at 5×) on a version of its own: GPU-hours against a fleet fixed at the peak.
    const day = await endpoint(db, "day");
    await setPolicy(ctx, policy(day.versionId, { enabled: true, minReplicas: 1, maxReplicas: DAY_MAX, scaleDownWindowSeconds: DAY_DOWN_WINDOW_S, target: DAY_TARGET }));
    await until("the day's warm floor ready", async () => (await db.replica.count({ where: { endpointVersionId: day.versionId, state: "ready" } })) === 1);
    await gateway.config.reload();
    const dayMeter = new FleetMeter(() => live(db, day.versionId), () => replicaCalls(db, day.versionId, true));
    const dayMetering = setInterval(() => void dayMeter.sample(), 1000);
    const d0 = Date.now();
    const dayRate = dailyRate(BASE_RPS, HOUR_MS);
    const dayResults = await openLoop({ url, secret: SECRET, slug: "day", seconds: (24 * HOUR_MS) / 1000, stream: true, rate: dayRate });
    clearInterval(dayMetering);
    const dayS = (Date.now() - d0) / 1000;
    const fleet = peakFleet(dayMeter.samples, dayRate, DAY_TARGET, 1);
    const hours = (s: number) => Number((s / (HOUR_MS / 1000)).toFixed(1));
    const against = (n: number) => Number((dayMeter.gpuSeconds / (n * dayS)).toFixed(3));
    const dayEvents = await db.auditEvent.findMany({ where: { action: "autoscale.decision", targetId: day.versionId }, orderBy: { at: "asc" } });
    const dayDecisions = dayEvents.map((d) => `${d.at.getTime() >= d0 ? "+" : ""}${((d.at.getTime() - d0) / HOUR_MS).toFixed(2)} h ${(d.after as { reason: string }).reason}`);
    const dayTtft = dayResults.filter((r) => r.ttftMs !== null).map((r) => r.ttftMs!);
    await setPolicy(ctx, policy(day.versionId, { enabled: false, minReplicas: 0, maxReplicas: DAY_MAX, expectedRevision: 1, target: DAY_TARGET }));
    for (const r of await db.replica.findMany({ where: { endpointVersionId: day.versionId, state: { not: "stopped" } } })) await stopReplica(ctx, { replicaId: r.id });

    // 3. Scale from zero: 50 calls at once to a version with no replica.
    const zero = await endpoint(db, "zero");
    await setPolicy(ctx, policy(zero.versionId, { enabled: true, minReplicas: 0, maxReplicas: 1 }));
    await gateway.config.reload();
    const z0 = Date.now();
    const zr = await Promise.all(Array.from({ length: 50 }, async () => {
      const res = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" }, body: JSON.stringify({ model: "zero", messages: [{ role: "user", content: "hi" }], max_tokens: 4 }) });
      await res.arrayBuffer();
      return { status: res.status, ms: Date.now() - z0 };
    }));
    await setPolicy(ctx, policy(zero.versionId, { enabled: false, minReplicas: 0, maxReplicas: 1, expectedRevision: 1 }));
    for (const r of await db.replica.findMany({ where: { endpointVersionId: zero.versionId, state: { not: "stopped" } } })) await stopReplica(ctx, { replicaId: r.id });

    // 4. A MIG change of a GPU serving two replicas under 300 req/s.
    const mig = await endpoint(db, "mig");
    const gpu = await db.gpu.findFirstOrThrow({ where: { node: { hostname: "llm-2" }, index: 0 } });
    for (const startSlot of [0, 4]) await startReplica(ctx, { endpointVersionId: mig.versionId, device: { kind: "mig", gpuId: gpu.id, startSlot } });
    await until("both MIG replicas ready", async () => (await db.replica.count({ where: { endpointVersionId: mig.versionId, state: "ready" } })) === 2);
    await gateway.config.reload();
    const worker = new MigChangeWorker({ db, drivers });
    const load = openLoop({ url, secret: SECRET, slug: "mig", seconds: 25, stream: false, rate: () => 300 });
    await new Promise((r) => setTimeout(r, 3000));
    const m0 = Date.now();
    const change = await startMigChange(ctx, { changes: [{ gpuId: gpu.id, layout: [{ profile: "7g.80gb", startSlot: 0 }] }], moveBack: false });
    for (let state = "running"; state === "running"; state = (await db.migChange.findUniqueOrThrow({ where: { id: change.id } })).state) {
      await worker.tick();
      await new Promise((r) => setTimeout(r, 200));
    }
    const migSeconds = (Date.now() - m0) / 1000;
    const migResults = await load;

    writeResult("capacity", {
      latency_scale: 1,
      cold_start_s: 1.5,
      load_step: { base_rps: BASE_RPS, peak_rps: 5 * BASE_RPS, seconds: { before: LOW_S, at_5x: HIGH_S, after: AFTER_S }, ttft_slo_ms: TTFT_SLO_MS, policy: "in-flight per replica, target 12, 1–4 replicas, scale-down window 30 s" },
      ttft_p99_back_in_slo_s: slo.seconds,
      ttft_p99_worst_ms: Math.round(slo.worstP99Ms),
      requests: results.length,
      failed_requests: results.filter((r) => r.status !== 200).length,
      scale_events: acts.filter((a) => a.action !== "hold").length,
      oscillations: steady,
      step_gpu_hours_ratio: Number((meter.gpuSeconds / (meter.peak * runS)).toFixed(3)),
      peak_replicas: meter.peak,
      step_decisions: stepDecisions,
      daily: { hour_s: HOUR_MS / 1000, shape_x_base: DAY_SHAPE, policy: `in-flight per replica, target ${DAY_TARGET}, 1–${DAY_MAX} replicas, scale-down window ${DAY_DOWN_WINDOW_S} s`, scale_down_window_s: DAY_DOWN_WINDOW_S, requests: dayResults.length, failed_requests: dayResults.filter((r) => r.status !== 200).length, ttft_p99_ms: p99(dayTtft), calls_over_ttft_slo_pct: Number(((100 * dayTtft.filter((x) => x > TTFT_SLO_MS).length) / Math.max(1, dayTtft.length)).toFixed(2)), scale_events: dayEvents.filter((d) => (d.after as { action: string }).action !== "hold").length, peak_replicas: dayMeter.peak, hours_at_replicas: Object.fromEntries(Object.entries(dayMeter.secondsAt).map(([n, s]) => [n, Number((s / (HOUR_MS / 1000)).toFixed(2))])), gpu_hours: hours(dayMeter.gpuSeconds),
        fixed_fleet: { replicas: fleet.replicas, sized_by: `ceil(${fleet.inFlight.toFixed(1)} calls in flight, mean over the ${hours(fleet.plateauSeconds)} h at the peak rate / target ${DAY_TARGET})`, gpu_hours: hours(fleet.replicas * dayS) },
        held_most_of_peak: { replicas: fleet.mostHeld, gpu_hours_ratio: against(fleet.mostHeld) },
        touched_max: { replicas: dayMeter.peak, gpu_hours_ratio: against(dayMeter.peak) },
        ideal_follower: { gpu_hours: hours(fleet.idealSeconds), gpu_hours_ratio: Number((fleet.idealSeconds / (fleet.replicas * dayS)).toFixed(3)) },
        decisions: dayDecisions },
      gpu_hours_ratio: against(fleet.replicas),
      scale_from_zero_calls: zr.length,
      scale_from_zero_failed: zr.filter((r) => r.status !== 200).length,
      scale_from_zero_first_ms: Math.min(...zr.filter((r) => r.status === 200).map((r) => r.ms)),
      mig_change_rps: 300,
      mig_change_requests: migResults.length,
      mig_change_failed_requests: migResults.filter((r) => r.status !== 200).length,
      mig_change_seconds: Number(migSeconds.toFixed(1)),
      targets: { ttft_p99_back_in_slo_s: "≤ cold start + 60", failed_requests: 0, oscillations: 0, gpu_hours_ratio: 0.6, scale_from_zero_failed: 0, mig_change_failed_requests: 0 },
      note: `One process: simulator (latency model at real speed), gateway, autoscaler (1 s ticks, signal from the replicas' /metrics), MIG change worker and the load generator share the machine's cores. Each call asks a different question, so answer lengths vary (16–64 tokens). The step: ${LOW_S} s at 1×, ${HIGH_S} s at 5×, ${AFTER_S} s at 1×; oscillations count changes of direction from a minute after the step to its end, and from 45 s after the load falls to the end. gpu_hours_ratio is over a compressed day (daily.shape_x_base, one hour every ${HOUR_MS / 1000} s, replicas starting, ready or draining sampled each second, daily.gpu_hours in the day's hours) against a fixed fleet sized for the peak (daily.fixed_fleet): the calls in flight (running + waiting on the replicas, sampled each second) while the load stood at its peak, mean, over the policy's per-replica target, rounded up; the day runs at target ${DAY_TARGET} so that its peak needs six or more replicas. Beside it, the ratio against the replicas the autoscaler held for most of the peak and against the most it touched, and an ideal follower (ceil(in flight / target) at every sample, no band, windows or cold start). step_gpu_hours_ratio is over the step run against its touched maximum.`,
    });
  } finally {
    await autoscaler?.stop();
    stopSync();
    await gateway.close().catch(() => {});
    await pool.end().catch(() => {});
    await cluster.shutdown();
    await new Promise((r) => sim.server.close(r));
    drivers.external.close();
    await db.$disconnect();
    await dropDatabase(databaseUrl).catch(() => {});
    await server.stop();
  }
}
