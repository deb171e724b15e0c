import { beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { appRouter } from "./root.ts";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { startAlertmanager, type RunningAlertmanager } from "../../scripts/lib/alertmanager.ts";
import { freePort } from "../../scripts/lib/proc.ts";
import { caller, makeActor, useAlertmanager, makeEndpoint, makeModelWithVersions, makeTenant, testDb, uid } from "../test/harness.ts";
import type { Actor } from "../auth/actor.ts";
import type { Role } from "../db/generated/enums.ts";
import { newApiKeySecret } from "../auth/api-key-secret.ts";

type Fixtures = {
  tenantId: string;
  otherTenantId: string;
  endpointId: string;
  endpointRevision: () => Promise<number>;
  endpointVersionId: string;
  modelId: string;
  modelVersionId: string;
  spareModelVersionId: () => Promise<string>;
  nodePoolId: string;
  keyId: () => Promise<string>;
  userId: string;
  cpuVersionId: string;
  cpuNodeId: string;
  fraGpuId: string;
  fraNodeId: string;
  failedReplicaId: () => Promise<string>;
  /** A fresh endpoint whose 1.0 holds 100% and whose 1.1 is ready at 0% (database rows only). */
  twoReady: () => Promise<{ endpointId: string; revision: number; stableId: string; canaryId: string }>;
  cpuEndpointId: string;
  cpuModelVersionId: string;
};

type Case = { input: (f: Fixtures, actor: Actor) => Promise<unknown> | unknown; allowed: Role[] };

/**
 * Every procedure with who may call it, written out here rather than read from the permission
 * table, so a change to the table that widens access fails this test.
 */
const MATRIX: Record<string, Case> = {
  "model.list": { input: () => undefined, allowed: ["admin", "operator", "auditor"] },
  "model.get": { input: (f) => ({ id: f.modelId }), allowed: ["admin", "operator", "auditor"] },
  "model.create": { input: () => ({ name: `m-${uid()}`, task: "llm" }), allowed: ["admin", "operator"] },
  "model.addVersion": {
    input: (f) => ({
      modelId: f.modelId,
      version: `2.${uid()}`,
      artifactUri: "s3://m/x",
      format: "vllm",
      precision: "fp8",
      parameterCount: "1000",
      weightBytes: "1000",
      minGpuMemoryBytes: "2000",
    }),
    allowed: ["admin", "operator"],
  },
  "endpoint.list": { input: () => undefined, allowed: ["admin", "operator", "auditor"] },
  "endpoint.catalog": { input: () => undefined, allowed: ["admin", "operator", "tenant"] },
  "endpoint.get": { input: (f) => ({ id: f.endpointId }), allowed: ["admin", "operator", "auditor"] },
  "endpoint.create": {
    input: (f) => ({
      name: "Matrix endpoint",
      slug: `mx-${uid()}`,
      modelId: f.modelId,
      modelVersionId: f.modelVersionId,
      engine: "vllm",
      nodePoolId: f.nodePoolId,
      sloAvailabilityPct: 99.9,
      sloP99LatencyMs: 1000,
    }),
    allowed: ["admin", "operator"],
  },
  "endpoint.addVersion": {
    input: async (f) => ({ endpointId: f.endpointId, modelVersionId: await f.spareModelVersionId(), expectedRevision: await f.endpointRevision() }),
    allowed: ["admin", "operator"],
  },
  "endpoint.updateSlo": {
    input: async (f) => ({ endpointId: f.endpointId, expectedRevision: await f.endpointRevision(), sloAvailabilityPct: 99.5, sloP99LatencyMs: 3000, sloTtftMs: 400 }),
    allowed: ["admin", "operator"],
  },
  "rollout.setWeights": {
    input: async (f) => ({ endpointId: f.endpointId, expectedRevision: await f.endpointRevision(), weights: [{ endpointVersionId: f.endpointVersionId, weight: 100 }] }),
    allowed: ["admin", "operator"],
  },
  "tenant.list": { input: () => undefined, allowed: ["admin", "operator", "auditor"] },
  // Everyone signed in may ask for a tenant; a tenant user gets only its own (see cross-tenant cases).
  "tenant.get": { input: (f, a) => ({ id: a.tenantId ?? f.tenantId }), allowed: ["admin", "operator", "auditor", "tenant"] },
  "tenant.create": { input: () => ({ name: "Matrix tenant", slug: `mt-${uid()}` }), allowed: ["admin"] },
  "tenant.update": { input: (f) => ({ id: f.otherTenantId, kvkk: true }), allowed: ["admin"] },
  "tenant.pricePlans": { input: () => undefined, allowed: ["admin", "operator"] },
  "apiKey.list": { input: (f, a) => ({ tenantId: a.tenantId ?? f.tenantId }), allowed: ["admin", "operator", "tenant"] },
  "apiKey.create": { input: (f, a) => ({ tenantId: a.tenantId ?? f.tenantId, name: "matrix key" }), allowed: ["admin", "tenant"] },
  "apiKey.revoke": { input: async (f) => ({ id: await f.keyId() }), allowed: ["admin", "tenant"] },
  "user.me": { input: () => undefined, allowed: ["admin", "operator", "auditor", "tenant"] },
  "user.list": { input: () => undefined, allowed: ["admin"] },
  "user.create": { input: () => ({ email: `u-${uid()}@test.local`, name: "Matrix user", password: "long-enough-password", role: "auditor" }), allowed: ["admin"] },
  "user.setRole": { input: (f) => ({ userId: f.userId, role: "auditor" }), allowed: ["admin"] },
  "audit.list": { input: () => ({}), allowed: ["admin", "auditor"] },
  "callLog.list": { input: () => ({}), allowed: ["admin", "auditor", "tenant"] },
  "callLog.get": { input: async (f) => ({ requestId: await callLogRow(f.tenantId) }), allowed: ["admin", "auditor", "tenant"] },
  "callLog.export.start": { input: (f) => ({ filter: { tenantId: f.tenantId, requestId: "none" }, format: "csv" }), allowed: ["admin", "auditor", "tenant"] },
  "callLog.export.get": {
    input: async (f, a) => ({ id: (await testDb().exportJob.create({ data: { format: "csv", filter: {}, tenantScope: f.tenantId, requestedById: a?.userId ?? "x", requestedByEmail: "x" } })).id }),
    allowed: ["admin", "auditor", "tenant"],
  },
  "callLog.export.list": { input: () => undefined, allowed: ["admin", "auditor", "tenant"] },
  "callLog.seal.status": { input: () => undefined, allowed: ["admin", "auditor"] },
  "callLog.seal.verify": { input: () => undefined, allowed: ["admin", "auditor"] },
  "kvkk.settings": { input: () => undefined, allowed: ["admin", "auditor"] },
  "kvkk.updateSettings": { input: () => ({ defaultRetentionDays: 730, destructionIntervalDays: 30, sealGraceMinutes: 120 }), allowed: ["admin"] },
  "kvkk.setTenantRetention": { input: (f) => ({ tenantId: f.otherTenantId, days: null }), allowed: ["admin"] },
  "kvkk.destructions": { input: () => ({}), allowed: ["admin", "auditor"] },
  "kvkk.runDestruction": { input: () => undefined, allowed: ["admin"] },
  "kvkk.residency": { input: () => ({ from: new Date(Date.now() - 3_600_000), to: new Date() }), allowed: ["admin", "auditor"] },
  "kvkk.transfers": { input: () => ({ from: new Date(Date.now() - 3_600_000), to: new Date() }), allowed: ["admin", "auditor"] },
  "kvkk.subject.list": { input: () => undefined, allowed: ["admin", "auditor"] },
  "kvkk.subject.find": { input: () => ({ user: `nobody-${uid()}` }), allowed: ["admin", "auditor", "tenant"] },
  "kvkk.subject.export": { input: async (f, a) => ({ requestId: await subjectRequest(f.tenantId, a), format: "csv" }), allowed: ["admin", "auditor", "tenant"] },
  "kvkk.subject.destroy": { input: async (f, a) => ({ requestId: await subjectRequest(f.tenantId, a), method: "delete" }), allowed: ["admin"] },
  "cluster.nodePools": { input: () => undefined, allowed: ["admin", "operator", "auditor"] },
  "metrics.gpuFleet": { input: () => undefined, allowed: ["admin", "operator", "auditor"] },
  "metrics.endpointCharts": { input: (f) => ({ endpointId: f.endpointId, range: "15m" }), allowed: ["admin", "operator", "auditor"] },
  "metrics.gpuCharts": { input: () => ({ scope: { kind: "node", hostname: "fra-1" }, range: "1h" }), allowed: ["admin", "operator", "auditor"] },
  "metrics.sla": { input: () => undefined, allowed: ["admin", "operator", "auditor"] },
  "metrics.grafanaDashboard": { input: (f) => ({ endpointId: f.endpointId }), allowed: ["admin", "operator", "auditor"] },
  // The tenant is the caller's own: staff have none to scope by (and use the cluster-wide charts).
  "metrics.tenantCharts": { input: () => ({ range: "1h" }), allowed: ["tenant"] },
  "metrics.explore": { input: () => ({ query: "up", range: "15m" }), allowed: ["admin", "operator"] },
  "system.status": { input: () => undefined, allowed: ["admin", "operator", "auditor", "tenant"] },
  "cluster.summary": { input: () => undefined, allowed: ["admin", "operator", "auditor"] },
  "cluster.nodes": { input: () => ({ search: "fra" }), allowed: ["admin", "operator", "auditor"] },
  "cluster.node": { input: () => ({ hostname: "fra-1" }), allowed: ["admin", "operator", "auditor"] },
  "cluster.heatmap": { input: () => undefined, allowed: ["admin", "operator", "auditor"] },
  "cluster.freeDevices": { input: (f) => ({ endpointVersionId: f.cpuVersionId }), allowed: ["admin", "operator"] },
  "cluster.startReplica": { input: (f) => ({ endpointVersionId: f.cpuVersionId, device: { kind: "cpu", nodeId: f.cpuNodeId } }), allowed: ["admin", "operator"] },
  "cluster.registerExternal": { input: (f) => ({ endpointVersionId: f.cpuVersionId, url: `http://127.0.0.1:${1000 + ++externalPort}`, region: "tr-ist" }), allowed: ["admin", "operator"] },
  "cluster.stopReplica": { input: async (f) => ({ replicaId: await f.failedReplicaId() }), allowed: ["admin", "operator"] },
  "cluster.applyMig": { input: (f) => ({ gpuId: f.fraGpuId, layout: [] }), allowed: ["admin", "operator"] },
  "cluster.setCordon": { input: (f) => ({ nodeId: f.fraNodeId, cordoned: false }), allowed: ["admin", "operator"] },
  "cluster.injectFault": { input: (f) => ({ type: "version-errors", endpointVersionId: f.cpuVersionId, share: 0 }), allowed: ["admin", "operator"] },
  "cluster.clearFaults": { input: () => undefined, allowed: ["admin", "operator"] },
  "rollout.deploy": {
    input: async (f) => ({ endpointId: f.cpuEndpointId, modelVersionId: f.cpuModelVersionId, replicas: 1, expectedRevision: (await testDb().endpoint.findUniqueOrThrow({ where: { id: f.cpuEndpointId } })).revision }),
    allowed: ["admin", "operator"],
  },
  "rollout.promote": { input: async (f) => ({ ...(await f.twoReady().then((e) => ({ endpointId: e.endpointId, endpointVersionId: e.canaryId, expectedRevision: e.revision }))) }), allowed: ["admin", "operator"] },
  "rollout.blueGreen": { input: async (f) => await f.twoReady().then((e) => ({ endpointId: e.endpointId, endpointVersionId: e.canaryId, expectedRevision: e.revision })), allowed: ["admin", "operator"] },
  "rollout.rollback": { input: async (f) => await f.twoReady().then((e) => ({ endpointId: e.endpointId, expectedRevision: e.revision })), allowed: ["admin", "operator"] },
  "rollout.removeVersion": { input: async (f) => await f.twoReady().then((e) => ({ endpointId: e.endpointId, endpointVersionId: e.canaryId, expectedRevision: e.revision })), allowed: ["admin", "operator"] },
  "rollout.startPlan": {
    input: async (f) => await f.twoReady().then((e) => ({ endpointId: e.endpointId, canaryVersionId: e.canaryId, expectedRevision: e.revision, steps: [{ weight: 10, holdSeconds: 60 }, { weight: 100, holdSeconds: 1 }] })),
    allowed: ["admin", "operator"],
  },
  "rollout.planAction": {
    input: async (f) => {
      const e = await f.twoReady();
      const r = await testDb().rollout.create({ data: { endpointId: e.endpointId, stableVersionId: e.stableId, canaryVersionId: e.canaryId, steps: [{ weight: 10, holdSeconds: 60 }, { weight: 100, holdSeconds: 1 }], analysis: {}, stepStartedAt: new Date() } });
      return { rolloutId: r.id, action: "pause", expectedRevision: r.revision };
    },
    allowed: ["admin", "operator"],
  },
  "usage.tenant": { input: (f, a) => ({ tenantId: a.tenantId ?? f.tenantId, days: 7 }), allowed: ["admin", "operator", "tenant"] },
  "usage.invoice": { input: (f, a) => ({ tenantId: a.tenantId ?? f.tenantId, month: "2026-12" }), allowed: ["admin", "operator", "tenant"] },
  "usage.setBudget": { input: (f, a) => ({ tenantId: a.tenantId ?? f.tenantId, monthlyBudget: "1000", hardCap: false }), allowed: ["admin", "tenant"] },
  "usage.ranking": { input: () => ({ days: 7 }), allowed: ["admin", "operator"] },
  "usage.economics": { input: () => ({ days: 7 }), allowed: ["admin", "operator"] },
  "usage.pricing": { input: () => undefined, allowed: ["admin", "operator"] },
  "usage.addPlanPrice": { input: async () => ({ planId: (await testDb().pricePlan.create({ data: { name: `mx-${uid()}` } })).id, effectiveFrom: new Date(Date.now() + 86_400_000), inputPer1M: "1", outputPer1M: "2", perRequest: "0" }), allowed: ["admin"] },
  "usage.setHardwareRate": { input: () => ({ kind: "cpu", key: "cpu-1", perHour: "12.5", effectiveFrom: new Date(Date.now() + 3_600_000) }), allowed: ["admin"] },
  "rollout.active": { input: (f) => ({ endpointId: f.endpointId }), allowed: ["admin", "operator", "auditor"] },
  "rollout.recent": { input: (f) => ({ endpointId: f.endpointId }), allowed: ["admin", "operator", "auditor"] },
  "rollout.history": { input: (f) => ({ endpointId: f.endpointId }), allowed: ["admin", "operator", "auditor"] },
  "rollout.servedSplit": { input: (f) => ({ endpointId: f.endpointId }), allowed: ["admin", "operator", "auditor"] },
  "alert.list": { input: (f) => ({ endpointId: f.endpointId }), allowed: ["admin", "operator", "auditor"] },
  "alert.receivers": { input: () => undefined, allowed: ["admin", "operator", "auditor"] },
  "alert.createReceiver": { input: () => ({ kind: "webhook", name: `mx-${uid()}`, settings: { url: "https://hooks.example.com/x" }, endpointSlugs: [], severities: [] }), allowed: ["admin", "operator"] },
  "alert.updateReceiver": {
    input: async () => {
      const r = await testDb().alertReceiver.create({ data: { kind: "webhook", name: `mx-${uid()}`, settings: { url: "https://hooks.example.com/x" }, endpointSlugs: [], severities: [] } });
      return { id: r.id, expectedRevision: r.revision, kind: "webhook", name: r.name, settings: { url: "https://hooks.example.com/y" }, endpointSlugs: [], severities: ["page"] };
    },
    allowed: ["admin", "operator"],
  },
  "alert.deleteReceiver": {
    input: async () => ({ id: (await testDb().alertReceiver.create({ data: { kind: "webhook", name: `mx-${uid()}`, settings: { url: "https://hooks.example.com/x" }, endpointSlugs: [], severities: [] } })).id }),
    allowed: ["admin", "operator"],
  },
  "alert.silences": { input: () => undefined, allowed: ["admin", "operator", "auditor"] },
  "alert.createSilence": { input: () => ({ endpointSlug: "matrix", minutes: 5, comment: "permission matrix" }), allowed: ["admin", "operator"] },
  "alert.expireSilence": {
    input: async () => {
      const now = Date.now();
      const res = await fetch(`${am.url}/api/v2/silences`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ matchers: [{ name: "endpoint", value: "matrix", isRegex: false }], startsAt: new Date(now).toISOString(), endsAt: new Date(now + 60_000).toISOString(), createdBy: "matrix", comment: "to expire" }) });
      return { silenceId: ((await res.json()) as { silenceID: string }).silenceID };
    },
    allowed: ["admin", "operator"],
  },
};

let externalPort = 0;
const ROLES: Role[] = ["admin", "operator", "auditor", "tenant"];
let actors: Record<Role, Actor>;
let fx: Fixtures;
let am: RunningAlertmanager;

async function call(actor: Actor | null, path: string, input: unknown) {
  // Routers nest (callLog.export.start): walk the caller down the path.
  const fn = path.split(".").reduce((o: unknown, k) => (o as Record<string, unknown>)[k], caller(actor)) as (i: unknown) => Promise<unknown>;
  return fn(input);
}

/** A call-log row of the tenant, as the gateway writes it. */
async function callLogRow(tenantId: string) {
  const requestId = `matrix-${uid()}`;
  await testDb().$executeRaw`INSERT INTO "CallLog" ("requestId", "tenantId", "startedAt", "endedAt", status) VALUES (${requestId}, ${tenantId}, now(), now(), 200)`;
  return requestId;
}

async function subjectRequest(tenantId: string, actor: Actor | undefined) {
  const r = await testDb().dataSubjectRequest.create({ data: { subjectHash: "0".repeat(64), tenantId, rowsFound: 0, requestedById: actor?.userId ?? "x", requestedByEmail: "x" } });
  return r.id;
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "OK";
  } catch (e) {
    if (e instanceof TRPCError) return e.code;
    throw e;
  }
}

afterAll(async () => {
  useAlertmanager(null);
  await am?.stop();
});

beforeAll(async () => {
  const db = testDb();
  // The silences live in Alertmanager: a real one, routing to a webhook nobody answers.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kule-matrix-am-"));
  const options = { kuleWebhookUrl: "http://127.0.0.1:9/api/alerts/webhook", kuleTokenFile: "/dev/null" };
  const running = await startAlertmanager({ dataDir: dir, port: await freePort(), config: options });
  if (!running) throw new Error("No Alertmanager binary: apt-get install -y prometheus-alertmanager");
  am = running;
  useAlertmanager({ url: am.url, configFile: am.configFile, options });
  const [tenant, other] = await Promise.all([makeTenant(), makeTenant()]);
  actors = {
    admin: await makeActor("admin"),
    operator: await makeActor("operator"),
    auditor: await makeActor("auditor"),
    tenant: await makeActor("tenant", tenant.id),
  };
  const { endpoint, model, pool } = await makeEndpoint();
  const target = await makeActor("operator");
  fx = {
    tenantId: tenant.id,
    otherTenantId: other.id,
    endpointId: endpoint.id,
    endpointRevision: async () => (await db.endpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).revision,
    endpointVersionId: endpoint.versions[0]!.id,
    modelId: model.id,
    modelVersionId: model.versions[0]!.id,
    spareModelVersionId: async () =>
      (
        await db.modelVersion.create({
          data: { modelId: model.id, version: `9.${uid()}`, artifactUri: "s3://m/y", format: "vllm", precision: "fp8", parameterCount: 1n, weightBytes: 1n, minGpuMemoryBytes: 1n },
        })
      ).id,
    nodePoolId: pool.id,
    keyId: async () => {
      const { prefix, hash } = newApiKeySecret();
      return (await db.apiKey.create({ data: { tenantId: tenant.id, name: "to revoke", prefix, secretHash: hash } })).id;
    },
    userId: target.userId,
    ...(await simFixtures()),
  };
});

/** An endpoint on the CPU pool of the cluster the test simulator plays (see global-setup.ts). */
async function simFixtures() {
  const db = testDb();
  const cpuNode = await db.node.findUniqueOrThrow({ where: { hostname: "cpu-1" } });
  const fra = await db.node.findUniqueOrThrow({ where: { hostname: "fra-1" }, include: { gpus: true } });
  const model = await makeModelWithVersions(["1.0"]);
  const endpoint = await db.endpoint.create({
    data: {
      name: "Matrix CPU endpoint",
      slug: `cpu-${uid()}`,
      modelId: model.id,
      engine: "onnxruntime",
      nodePoolId: cpuNode.nodePoolId,
      sloAvailabilityPct: "99.9",
      sloP99LatencyMs: 300,
      versions: { create: { modelVersionId: model.versions[0]!.id, weight: 100, state: "pending" } },
    },
    include: { versions: true },
  });
  const cpuVersionId = endpoint.versions[0]!.id;
  return {
    cpuVersionId,
    cpuEndpointId: endpoint.id,
    cpuModelVersionId: model.versions[0]!.id,
    twoReady: async () => {
      const { endpoint: e, model: m } = await makeEndpoint();
      const canary = await db.endpointVersion.create({ data: { endpointId: e.id, modelVersionId: m.versions[1]!.id, weight: 0, state: "ready", lastFullAt: new Date(Date.now() - 60_000) } });
      await db.endpointVersion.update({ where: { id: e.versions[0]!.id }, data: { lastFullAt: new Date() } });
      return { endpointId: e.id, revision: e.revision, stableId: e.versions[0]!.id, canaryId: canary.id };
    },
    cpuNodeId: cpuNode.id,
    // GPU 1 of fra-1 is the matrix's own: other test files lay out MIG on GPU 0.
    fraGpuId: fra.gpus.find((g) => g.index === 1)!.id,
    fraNodeId: fra.id,
    failedReplicaId: async () => (await db.replica.create({ data: { endpointVersionId: cpuVersionId, driver: "sim", region: "tr-ank", state: "failed", reason: "test" } })).id,
  };
}

describe("permission matrix", () => {
  it("covers every procedure of the router", () => {
    expect(Object.keys(appRouter._def.procedures).sort()).toEqual(Object.keys(MATRIX).sort());
  });

  for (const [path, c] of Object.entries(MATRIX)) {
    it(`${path}: signed out is UNAUTHORIZED`, async () => {
      expect(await codeOf(call(null, path, await c.input(fx, actors?.admin)))).toBe("UNAUTHORIZED");
    });
    for (const role of ROLES) {
      const expected = c.allowed.includes(role) ? "OK" : "FORBIDDEN";
      it(`${path} as ${role}: ${expected}`, async () => {
        const actor = actors[role];
        expect(await codeOf(call(actor, path, await c.input(fx, actor)))).toBe(expected);
      });
    }
  }
});

describe("cross-tenant access is NOT_FOUND", () => {
  it("a tenant user cannot read another tenant", async () => {
    expect(await codeOf(caller(actors.tenant).tenant.get({ id: fx.otherTenantId }))).toBe("NOT_FOUND");
  });

  it("a tenant user cannot list, create or revoke another tenant's keys", async () => {
    const t = caller(actors.tenant);
    expect(await codeOf(t.apiKey.list({ tenantId: fx.otherTenantId }))).toBe("NOT_FOUND");
    expect(await codeOf(t.apiKey.create({ tenantId: fx.otherTenantId, name: "sneaky" }))).toBe("NOT_FOUND");
    const { prefix, hash } = newApiKeySecret();
    const foreign = await testDb().apiKey.create({ data: { tenantId: fx.otherTenantId, name: "theirs", prefix, secretHash: hash } });
    expect(await codeOf(t.apiKey.revoke({ id: foreign.id }))).toBe("NOT_FOUND");
    expect((await testDb().apiKey.findUniqueOrThrow({ where: { id: foreign.id } })).revokedAt).toBeNull();
  });

  it("a tenant user listing keys without naming a tenant sees only its own", async () => {
    const { prefix, hash } = newApiKeySecret();
    await testDb().apiKey.create({ data: { tenantId: fx.otherTenantId, name: "theirs", prefix, secretHash: hash } });
    const keys = await caller(actors.tenant).apiKey.list({});
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys.map((k) => k.tenantId))).toEqual(new Set([fx.tenantId]));
  });

  it("a key a tenant user creates always belongs to its own tenant", async () => {
    const { key } = await caller(actors.tenant).apiKey.create({ name: "mine" });
    expect(key.tenantId).toBe(fx.tenantId);
  });
});
