import type { Actor } from "../auth/actor.ts";
import type { Role } from "../db/generated/enums.ts";
import { makeEndpoint, makeModelWithVersions, makeTenant, testDb, uid } from "../test/harness.ts";
import { processRings } from "../call-log/keys/rings.ts";
import { application, breach, callLogRow, safeguard, ssoRule, subjectRequest } from "./permission-matrix.rows.ts";

/* The permission matrix's cases (permission-matrix.int.test.ts runs them): every procedure with the roles that may call it. */

export type Fixtures = {
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
  /** The real Alertmanager the matrix runs (silences live there). */
  alertmanagerUrl: string;
};

export type Case = { input: (f: Fixtures, actor: Actor) => Promise<unknown> | unknown; allowed: Role[] };

/**
 * Every procedure with who may call it, written out here rather than read from the permission
 * table, so a change to the table that widens access fails this test.
 */
export const MATRIX: Record<string, Case> = {
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
  "model.update": { input: async (f) => ({ id: f.modelId, expectedUpdatedAt: (await testDb().model.findUniqueOrThrow({ where: { id: f.modelId } })).updatedAt, description: "matrix" }), allowed: ["admin", "operator"] },
  "model.retire": { input: async () => ({ id: (await makeModelWithVersions(["1.0"])).id }), allowed: ["admin", "operator"] },
  "model.retireVersion": { input: async (f) => ({ id: await f.spareModelVersionId() }), allowed: ["admin", "operator"] },
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
  "endpoint.setShadow": { input: async (f) => ({ endpointVersionId: f.endpointVersionId, expectedRevision: await f.endpointRevision(), percent: 0 }), allowed: ["admin", "operator"] },
  "endpoint.update": { input: async (f) => ({ id: f.endpointId, expectedRevision: await f.endpointRevision(), stickySessions: false }), allowed: ["admin", "operator"] },
  // A fresh endpoint with no replica and no call: it may retire.
  "endpoint.retire": { input: async () => makeEndpoint().then(({ endpoint }) => ({ id: endpoint.id, expectedRevision: endpoint.revision })), allowed: ["admin", "operator"] },
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
  "tenant.update": { input: async (f) => ({ id: f.otherTenantId, expectedUpdatedAt: (await testDb().tenant.findUniqueOrThrow({ where: { id: f.otherTenantId } })).updatedAt, kvkk: true }), allowed: ["admin"] },
  "tenant.offboard": { input: async () => makeTenant().then((t) => ({ id: t.id, confirmSlug: t.slug, expectedUpdatedAt: t.updatedAt })), allowed: ["admin"] },
  "tenant.pricePlans": { input: () => undefined, allowed: ["admin", "operator"] },
  "apiKey.list": { input: (f, a) => ({ tenantId: a.tenantId ?? f.tenantId }), allowed: ["admin", "operator", "tenant"] },
  "apiKey.create": { input: (f, a) => ({ tenantId: a.tenantId ?? f.tenantId, name: "matrix key" }), allowed: ["admin", "tenant"] },
  "apiKey.setLimits": { input: async (f) => ({ id: await f.keyId(), rpmLimit: 5, tpmLimit: null }), allowed: ["admin", "tenant"] },
  "apiKey.revoke": { input: async (f) => ({ id: await f.keyId() }), allowed: ["admin", "tenant"] },
  "user.me": { input: () => undefined, allowed: ["admin", "operator", "auditor", "tenant"] },
  "user.list": { input: () => undefined, allowed: ["admin"] },
  "user.create": { input: () => ({ email: `u-${uid()}@test.local`, name: "Matrix user", password: "long-enough-password", role: "auditor" }), allowed: ["admin"] },
  "user.setRole": { input: (f) => ({ userId: f.userId, role: "auditor" }), allowed: ["admin"] },
  "sso.rules": { input: () => undefined, allowed: ["admin"] },
  "sso.createRule": { input: () => ({ claim: "groups", value: `g-${uid()}`, role: "operator" }), allowed: ["admin"] },
  "sso.updateRule": { input: async () => ({ ...(await ssoRule()), claim: "groups", value: `g-${uid()}`, role: "auditor" }), allowed: ["admin"] },
  "sso.deleteRule": { input: () => ssoRule(), allowed: ["admin"] },
  "sso.moveRule": { input: async () => ({ ...(await ssoRule()), direction: "up" }), allowed: ["admin"] },
  "sso.settings": { input: () => undefined, allowed: ["admin"] },
  "sso.setSettings": { input: async () => ({ localPasswords: true, expectedVersion: (await testDb().authSettings.upsert({ where: { id: "singleton" }, create: {}, update: {} })).version }), allowed: ["admin"] },
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
  "kvkk.controller": { input: () => undefined, allowed: ["tenant"] },
  "kvkk.setOwnRetention": { input: () => ({ days: null }), allowed: ["tenant"] },
  "kvkk.breaches.list": { input: () => undefined, allowed: ["admin", "auditor"] },
  "kvkk.breaches.get": { input: async () => ({ id: (await breach()).id }), allowed: ["admin", "auditor"] },
  "kvkk.breaches.create": { input: () => ({ title: "Laptop lost", description: "A staff laptop with an export was lost", awareAt: new Date() }), allowed: ["admin"] },
  "kvkk.breaches.update": { input: async () => breach().then((b) => ({ id: b.id, expectedUpdatedAt: b.updatedAt, title: b.title, description: b.description, status: "board_notified", boardNotifiedAt: new Date() })), allowed: ["admin"] },
  "kvkk.applications.list": { input: () => undefined, allowed: ["admin", "auditor", "tenant"] },
  "kvkk.applications.open": { input: (f) => ({ user: `subject-${uid()}`, tenantId: f.tenantId, channel: "kep", receivedAt: new Date(), identityCheck: "KEP address on file", right: "learn_whether_processed" }), allowed: ["admin", "tenant"] },
  "kvkk.applications.answer": { input: async (f) => application(f.tenantId).then((a) => ({ id: a.id, expectedUpdatedAt: a.updatedAt, answer: "No data of yours is processed by this service." })), allowed: ["admin", "tenant"] },
  "kvkk.applications.refuse": { input: async (f) => application(f.tenantId).then((a) => ({ id: a.id, expectedUpdatedAt: a.updatedAt, reason: "The identity could not be verified from the application." })), allowed: ["admin", "tenant"] },
  "kvkk.applications.erase": { input: async (f) => application(f.tenantId).then((a) => ({ id: a.id, expectedUpdatedAt: a.updatedAt, method: "delete" })), allowed: ["admin", "tenant"] },
  "kvkk.policy.get": { input: () => undefined, allowed: ["admin", "auditor"] },
  "kvkk.policy.update": {
    input: async () => {
      const e = await testDb().policyEntry.findUniqueOrThrow({ where: { store: "gateway_journal" } });
      return { store: e.store, category: e.category, dataSubjects: e.dataSubjects, purpose: e.purpose, legalBasis: e.legalBasis, periodDays: null, periodReason: e.periodReason, responsible: e.responsible, expectedUpdatedAt: e.updatedAt };
    },
    allowed: ["admin"],
  },
  "kvkk.keys.status": { input: () => undefined, allowed: ["admin", "auditor"] },
  // Making the current version current again changes nothing the run's gateways see.
  "kvkk.keys.activate": { input: () => ({ version: processRings().standard.versions[0]!.version }), allowed: ["admin"] },
  "kvkk.keys.rekey": { input: () => ({ batch: 1 }), allowed: ["admin"] },
  "kvkk.keys.retire": { input: async () => ({ version: (await testDb().subjectKeyVersion.create({ data: { version: `x${uid()}`, ring: "standard", fingerprint: "0".repeat(64) } })).version }), allowed: ["admin"] },
  "kvkk.special.list": { input: () => undefined, allowed: ["admin", "auditor"] },
  "kvkk.special.mark": { input: (f) => ({ tenantId: f.otherTenantId, category: null }), allowed: ["admin"] },
  "kvkk.holds.list": { input: () => undefined, allowed: ["admin", "auditor"] },
  "kvkk.holds.place": { input: () => ({ user: `held-${uid()}`, reason: "Matrix: a case that needs this subject's rows" }), allowed: ["admin"] },
  "kvkk.holds.release": { input: async () => ({ id: (await testDb().legalHold.create({ data: { subjectHash: "e".repeat(64), reason: "matrix", createdByEmail: "x" } })).id }), allowed: ["admin"] },
  "kvkk.safeguards.list": { input: () => undefined, allowed: ["admin", "auditor"] },
  "kvkk.safeguards.create": { input: (f) => ({ tenantId: f.tenantId, destination: "de", importer: "Rechen GmbH", mechanism: "bcr", reference: "BCR-1", signedAt: new Date(Date.now() - 86_400_000) }), allowed: ["admin"] },
  "kvkk.safeguards.notified": { input: async (f) => safeguard(f.tenantId).then((s) => ({ id: s.id, notifiedAt: new Date(), expectedUpdatedAt: s.updatedAt })), allowed: ["admin"] },
  "kvkk.safeguards.revoke": { input: async (f) => safeguard(f.tenantId).then((s) => ({ id: s.id, expectedUpdatedAt: s.updatedAt })), allowed: ["admin"] },
  "kvkk.regions.list": { input: () => undefined, allowed: ["admin", "auditor"] },
  "kvkk.regions.verify": {
    input: async (f) => ({ replicaId: (await testDb().replica.create({ data: { endpointVersionId: f.cpuVersionId, driver: "external", externalUrl: `https://x-${uid()}.example`, region: "de-fra", state: "failed" } })).id, evidence: "Hosting contract 42, Frankfurt" }),
    allowed: ["admin"],
  },
  "kvkk.subject.list": { input: () => undefined, allowed: ["admin", "auditor"] },
  "kvkk.subject.find": { input: (f) => ({ user: `nobody-${uid()}`, tenantId: f.tenantId }), allowed: ["admin", "auditor", "tenant"] },
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
  "cluster.previewMigChange": { input: (f) => ({ changes: [{ gpuId: f.fraGpuId, layout: [] }] }), allowed: ["admin", "operator"] },
  "cluster.startMigChange": {
    input: async (f) => {
      // One change per GPU at a time: end the previous role's first (no worker runs here).
      await testDb().migChange.updateMany({ where: { state: "running", changes: { array_contains: [{ gpuId: f.fraGpuId }] } }, data: { state: "cancelled" } });
      return { changes: [{ gpuId: f.fraGpuId, layout: [] }] };
    },
    allowed: ["admin", "operator"],
  },
  "cluster.cancelMigChange": { input: async (f) => ({ id: (await testDb().migChange.create({ data: { changes: [{ gpuId: f.fraGpuId, layout: [] }], plan: { gpus: [], moves: [], capacityMissing: { gpus: 0, memoryBytes: 0, text: "none" }, refused: null } } })).id }), allowed: ["admin", "operator"] },
  "cluster.migChanges": { input: () => undefined, allowed: ["admin", "operator", "auditor"] },
  "cluster.setCordon": { input: (f) => ({ nodeId: f.fraNodeId, cordoned: false }), allowed: ["admin", "operator"] },
  "cluster.injectFault": { input: (f) => ({ type: "version-errors", endpointVersionId: f.cpuVersionId, share: 0 }), allowed: ["admin", "operator"] },
  "cluster.clearFaults": { input: () => undefined, allowed: ["admin", "operator"] },
  "rollout.deploy": {
    input: async (f) => ({ endpointId: f.cpuEndpointId, modelVersionId: f.cpuModelVersionId, replicas: 1, expectedRevision: (await testDb().endpoint.findUniqueOrThrow({ where: { id: f.cpuEndpointId } })).revision }),
    allowed: ["admin", "operator"],
  },
  "planner.plan": { input: () => ({ card: { parameterCount: 8e9, precision: "bf16", layers: 32, kvHeads: 8, headDim: 128 }, forecast: { peakRps: 2, promptTokens: 500, answerTokens: 200 }, slo: { ttftP99Ms: 2000, tpotP99Ms: 100 } }), allowed: ["admin", "operator"] },
  "planner.live": { input: (f) => ({ endpointId: f.endpointId }), allowed: ["admin", "operator"] },
  "rollout.fit": { input: (f) => ({ endpointId: f.cpuEndpointId, modelVersionId: f.cpuModelVersionId }), allowed: ["admin", "operator"] },
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
  "autoscale.get": { input: (f) => ({ endpointVersionId: f.cpuVersionId }), allowed: ["admin", "operator", "auditor"] },
  "autoscale.history": { input: (f) => ({ endpointId: f.cpuEndpointId }), allowed: ["admin", "operator", "auditor"] },
  "autoscale.set": {
    // A fresh version: the matrix registers an external server for the CPU one, which refuses a policy.
    input: async (f) => ({ endpointVersionId: (await f.twoReady()).canaryId, enabled: false, minReplicas: 1, maxReplicas: 2, signal: "in_flight_per_replica", target: 4 }),
    allowed: ["admin", "operator"],
  },
  "autoscale.remove": {
    input: async (f) => {
      const e = await f.twoReady();
      await testDb().autoscalePolicy.create({ data: { endpointVersionId: e.canaryId, enabled: false, minReplicas: 1, maxReplicas: 2, signal: "waiting_per_replica", target: 4 } });
      return { endpointVersionId: e.canaryId };
    },
    allowed: ["admin", "operator"],
  },
  "autoscale.setColdStart": { input: (f) => ({ endpointId: f.cpuEndpointId, coldStartQueueLimit: 100, coldStartTimeoutSeconds: 120 }), allowed: ["admin", "operator"] },
  "usage.tenant": { input: (f, a) => ({ tenantId: a.tenantId ?? f.tenantId, days: 7 }), allowed: ["admin", "operator", "tenant"] },
  "usage.invoice": { input: (f, a) => ({ tenantId: a.tenantId ?? f.tenantId, month: "2026-12" }), allowed: ["admin", "operator", "tenant"] },
  "usage.setBudget": { input: (f, a) => ({ tenantId: a.tenantId ?? f.tenantId, monthlyBudget: "1000", hardCap: false }), allowed: ["admin", "tenant"] },
  "usage.ranking": { input: () => ({ days: 7 }), allowed: ["admin", "operator"] },
  "usage.economics": { input: () => ({ days: 7 }), allowed: ["admin", "operator"] },
  "usage.pricing": { input: () => undefined, allowed: ["admin", "operator"] },
  "usage.addPlanPrice": { input: async () => ({ planId: (await testDb().pricePlan.create({ data: { name: `mx-${uid()}` } })).id, effectiveFrom: new Date(Date.now() + 86_400_000), inputPer1M: "1", outputPer1M: "2", perRequest: "0" }), allowed: ["admin"] },
  "usage.setPlanLimits": { input: async () => ({ planId: (await testDb().pricePlan.create({ data: { name: `mx-${uid()}` } })).id, rpmLimit: 10, tpmLimit: null }), allowed: ["admin"] },
  "usage.costBreakdown": { input: (f, a) => ({ tenantId: a.tenantId ?? f.tenantId, month: "2026-12" }), allowed: ["admin", "operator", "tenant"] },
  "usage.overheads": { input: () => undefined, allowed: ["admin", "operator"] },
  "usage.setOverhead": { input: () => ({ kind: "software", amount: "1000", spread: "even", effectiveFrom: new Date(Date.now() + 3_600_000) }), allowed: ["admin"] },
  "usage.setHardwareRate": { input: () => ({ kind: "cpu", key: "cpu-1", perHour: "12.5", effectiveFrom: new Date(Date.now() + 3_600_000) }), allowed: ["admin"] },
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
    input: async (f) => {
      const now = Date.now();
      const res = await fetch(`${f.alertmanagerUrl}/api/v2/silences`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ matchers: [{ name: "endpoint", value: "matrix", isRegex: false }], startsAt: new Date(now).toISOString(), endsAt: new Date(now + 60_000).toISOString(), createdBy: "matrix", comment: "to expire" }) });
      return { silenceId: ((await res.json()) as { silenceID: string }).silenceID };
    },
    allowed: ["admin", "operator"],
  },
  "rollout.active": { input: (f) => ({ endpointId: f.endpointId }), allowed: ["admin", "operator", "auditor"] },
  "rollout.recent": { input: (f) => ({ endpointId: f.endpointId }), allowed: ["admin", "operator", "auditor"] },
  "rollout.history": { input: (f) => ({ endpointId: f.endpointId }), allowed: ["admin", "operator", "auditor"] },
  "rollout.servedSplit": { input: (f) => ({ endpointId: f.endpointId }), allowed: ["admin", "operator", "auditor"] },
};

let externalPort = 0;
