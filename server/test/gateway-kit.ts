import net from "node:net";
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { Gateway } from "../gateway/server.ts";
import type { Limiter } from "../gateway/limits.ts";
import type { AdminOptions } from "../gateway/admin-server.ts";
import type { TrustedProxies } from "../http/client-ip.ts";
import type { CallLogRow } from "../gateway/call-log.ts";
import { caller, makeActor, makeModelWithVersions, testDb, uid } from "./harness.ts";
import { apiKeyRecord } from "../auth/api-key-secret.ts";
import type { Actor } from "../auth/actor.ts";
import type { GenAiMetrics } from "../gateway/genai-metrics.ts";
import type { GatewayTracing } from "../gateway/tracing.ts";
import type { Rings } from "../call-log/keys/rings.ts";

/**
 * A TCP relay between a gateway and PostgreSQL that a test can cut and restore, to make the
 * database unreachable for the gateway alone.
 */
export class CuttableProxy {
  private server: net.Server;
  private sockets = new Set<net.Socket>();
  cut = false;
  port = 0;
  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = net.createServer((client) => {
      if (this.cut) return client.destroy();
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => {});
      }
      client.pipe(upstream).pipe(client);
    });
  }
  async start() {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", () => r()));
    this.port = (this.server.address() as net.AddressInfo).port;
  }
  /** Drops every connection and refuses new ones, as a database that went away. */
  sever() {
    this.cut = true;
    for (const s of this.sockets) s.destroy();
  }
  restore() {
    this.cut = false;
  }
  close() {
    this.sever();
    return new Promise((r) => this.server.close(r));
  }
}

/** A proxy in front of the run's database that a test can sever and restore (an outage). */
export async function databaseProxy(): Promise<CuttableProxy> {
  const db = new URL(inject("databaseUrl"));
  const proxy = new CuttableProxy(db.hostname, Number(db.port || 5432));
  await proxy.start();
  return proxy;
}

export async function startTestGateway(opts: { viaProxy?: CuttableProxy; limiter?: Limiter; trustedProxies?: TrustedProxies; admin?: AdminOptions; tracing?: GatewayTracing; genAi?: GenAiMetrics; grpcPort?: number; rings?: Rings; databaseUrl?: string; engineLoadEveryMs?: number } = {}) {
  const url = new URL(opts.databaseUrl ?? inject("databaseUrl"));
  if (opts.viaProxy) {
    url.hostname = "127.0.0.1";
    url.port = String(opts.viaProxy.port);
  }
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4, connectionTimeoutMillis: 500 });
  pool.on("error", () => {});
  const gateway = new Gateway({ pool, databaseUrl: url.toString(), spoolDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-spool-")), maxBodyBytes: 64 * 1024, cooldown: { failures: 3, ms: 2000 }, limiter: opts.limiter, trustedProxies: opts.trustedProxies, tracing: opts.tracing, genAi: opts.genAi, grpcPort: opts.grpcPort, rings: opts.rings, engineLoadEveryMs: opts.engineLoadEveryMs });
  const base = await gateway.listen(0, "127.0.0.1", opts.admin);
  return {
    gateway,
    base,
    async close() {
      await gateway.close();
      await pool.end();
    },
  };
}

/** A tenant with one API key whose secret the test knows. */
export async function tenantWithKey(opts: { kvkk?: boolean; allowedEndpointIds?: string[]; rpmLimit?: number; tpmLimit?: number; expiresAt?: Date; revoked?: boolean } = {}) {
  const s = uid();
  const tenant = await testDb().tenant.create({ data: { name: `GW ${s}`, slug: `gw-${s}`, kvkk: opts.kvkk ?? false } });
  const secret = `kule_test${s}${"x".repeat(30)}`;
  const key = await testDb().apiKey.create({
    data: {
      tenantId: tenant.id,
      name: "test",
      prefix: apiKeyRecord(secret).prefix + s,
      secretHash: apiKeyRecord(secret).hash,
      allowedEndpointIds: opts.allowedEndpointIds ?? [],
      rpmLimit: opts.rpmLimit ?? null,
      tpmLimit: opts.tpmLimit ?? null,
      expiresAt: opts.expiresAt ?? null,
      revokedAt: opts.revoked ? new Date() : null,
    },
  });
  return { tenant, key, secret };
}

let operator: Actor | null = null;
async function op() {
  operator ??= await makeActor("operator");
  return operator;
}

/**
 * An endpoint on a pool of the simulator's cluster with the given versions, each with one ready
 * replica on the devices given (GPU index on a host, or "cpu"), and the weights given.
 */
export async function servedEndpoint(pool: string, versions: { weight: number; device: { host: string; gpu?: number } }[], task: "llm" | "embedding" | "vision" = "llm") {
  const db = testDb();
  const nodePool = await db.nodePool.findFirstOrThrow({ where: { name: pool, cluster: { name: "test-sim" } } });
  const model = await makeModelWithVersions(versions.map((_, i) => `${i + 1}.0`));
  await db.model.update({ where: { id: model.id }, data: { task } });
  const endpoint = await db.endpoint.create({
    data: {
      name: `GW ${uid()}`,
      slug: `gw-${uid()}`,
      modelId: model.id,
      engine: "vllm",
      nodePoolId: nodePool.id,
      sloAvailabilityPct: "99.9",
      sloP99LatencyMs: 2000,
      versions: { create: versions.map((v, i) => ({ modelVersionId: model.versions[i]!.id, weight: v.weight, state: "pending" as const, lastFullAt: v.weight === 100 ? new Date() : null })) },
    },
    include: { versions: true },
  });
  // Created in one statement, the versions share createdAt: put them in the order asked for.
  endpoint.versions = model.versions.map((mv) => endpoint.versions.find((ev) => ev.modelVersionId === mv.id)!);
  const replicas = [];
  for (const [i, v] of versions.entries()) {
    const node = await db.node.findUniqueOrThrow({ where: { hostname: v.device.host }, include: { gpus: true } });
    const device = v.device.gpu === undefined ? { kind: "cpu" as const, nodeId: node.id } : { kind: "gpu" as const, gpuId: node.gpus.find((g) => g.index === v.device.gpu)!.id };
    const r = await caller(await op()).cluster.startReplica({ endpointVersionId: endpoint.versions[i]!.id, device });
    replicas.push(r);
  }
  // Ready when the sync has seen each replica turn ready. Integration files run two at a time, so
  // on a busy machine a start can take seconds; a replica that never turns ready fails here, by
  // name, rather than later as a version "still loading".
  for (const r of replicas) {
    const deadline = Date.now() + 30_000;
    const state = async () => (await db.replica.findUniqueOrThrow({ where: { id: r.id } })).state;
    for (let s = await state(); s !== "ready"; s = await state()) {
      if (Date.now() > deadline) throw new Error(`servedEndpoint: replica ${r.id} is still ${s} after 30 s`);
      await new Promise((res) => setTimeout(res, 50));
    }
  }
  return { endpoint, versions: endpoint.versions, replicas };
}

/**
 * An endpoint on cpu-1 whose one version autoscales from zero (min 0, max 1) and has just been
 * scaled to zero, with small weights: a cold start of about a second. Returns the endpoint, the
 * operator who set it up, and `done` to remove the policy and stop what the autoscaler started.
 */
export async function scaledToZero(task: "llm" | "embedding" | "vision" = "llm") {
  const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }], task);
  const versionId = ep.versions[0]!.id;
  await testDb().modelVersion.update({ where: { id: ep.versions[0]!.modelVersionId }, data: { weightBytes: 500_000_000n, parameterCount: 500_000_000n, minGpuMemoryBytes: 600_000_000n } });
  const operator = caller(await op());
  await operator.autoscale.set({ endpointVersionId: versionId, minReplicas: 0, maxReplicas: 1, signal: "in_flight_per_replica", target: 4 });
  await operator.cluster.stopReplica({ replicaId: ep.replicas[0]!.id });
  const started = () => testDb().replica.findMany({ where: { endpointVersionId: versionId, createdById: "system:autoscaler" } });
  const done = async () => {
    await operator.autoscale.remove({ endpointVersionId: versionId });
    for (const r of await started()) await operator.cluster.stopReplica({ replicaId: r.id });
  };
  return { ...ep, started, done };
}

/** Call-log rows of a tenant's key, with request ids `<prefix>0`, `<prefix>1`, … and no routing. */
export function callLogRows(t: { tenant: { id: string }; key: { id: string } }, prefix: string) {
  let n = 0;
  return (): CallLogRow => {
    const now = Date.now();
    return { requestId: `${prefix}${n++}`, tenantId: t.tenant.id, apiKeyId: t.key.id, endpointId: null, endpointVersionId: null, replica: null, region: null, clientIp: null, startedAt: now, endedAt: now, ttftMs: null, status: 200, errorClass: null, promptTokens: 1, completionTokens: 1 };
  };
}
