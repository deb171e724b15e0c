import { httpMutation, uid } from "./harness.ts";
import type { Actor } from "../auth/actor.ts";

export interface Fixtures {
  otherModelVersionId: string;
  tenantId: string;
  endpointId: string;
  revision: number;
  versionId: string;
  modelId: string;
  modelVersionId: string;
  poolId: string;
}

/** One mutation called with one bad field over HTTP, and the field its 400 must name. */
export interface BadInput {
  path: string;
  name: string;
  field: string;
  /** Who calls it: an admin, unless only a tenant user may (the controller's own settings). */
  as?: "tenant";
  run: (a: Actor) => ReturnType<typeof httpMutation>;
}

const call = httpMutation;
const version = (fx: Fixtures, v: string, over: object) => ({ modelId: fx.modelId, version: v, artifactUri: "s3://a/b", format: "vllm", precision: "fp8", parameterCount: "1", weightBytes: "100", minGpuMemoryBytes: "200", ...over });
const endpoint = (fx: Fixtures, over: object) => ({ name: "Bad", slug: `s-${uid()}`, modelId: fx.modelId, modelVersionId: fx.modelVersionId, engine: "vllm", nodePoolId: fx.poolId, sloAvailabilityPct: 99.9, sloP99LatencyMs: 100, ...over });
const ref = (fx: Fixtures) => ({ endpointId: fx.endpointId, expectedRevision: fx.revision });

/** At least one bad input for every mutation of the app (validation.int.test.ts checks none is missing). */
export function badInputs(fx: Fixtures): BadInput[] {
  const c = (path: string, name: string, field: string, input: unknown): BadInput => ({ path, name: `${path} ${name}`, field, run: (a) => call(a, path, input) });
  return [
    c("model.create", "with an uppercase name", "name", { name: "Bad Name!", task: "llm" }),
    c("model.create", "with an unknown task", "task", { name: `ok-${uid()}`, task: "poetry" }),
    c("model.addVersion", "with a non-URI artifact", "artifactUri", version(fx, "3.0", { artifactUri: "not a uri" })),
    c("model.addVersion", "with GPU memory below the weights", "minGpuMemoryBytes", version(fx, "3.1", { minGpuMemoryBytes: "10" })),
    c("model.addVersion", "with a negative parameter count", "parameterCount", version(fx, "3.2", { parameterCount: "-5" })),
    c("model.addVersion", "with a context of 12 tokens", "contextTokens", version(fx, "3.3", { contextTokens: 12 })),
    c("endpoint.create", "with a bad slug", "slug", endpoint(fx, { slug: "Has Spaces" })),
    c("endpoint.create", "with an availability over 99.999", "sloAvailabilityPct", endpoint(fx, { sloAvailabilityPct: 100 })),
    c("endpoint.create", "with a version of another model", "modelVersionId", endpoint(fx, { modelVersionId: fx.otherModelVersionId })),
    c("endpoint.addVersion", "with a version of another model", "modelVersionId", { ...ref(fx), modelVersionId: fx.otherModelVersionId }),
    c("endpoint.updateSlo", "with an availability of 100%", "sloAvailabilityPct", { ...ref(fx), sloAvailabilityPct: 100, sloP99LatencyMs: 500, sloTtftMs: null }),
    c("endpoint.updateSlo", "with a p99 latency of 0 ms", "sloP99LatencyMs", { ...ref(fx), sloAvailabilityPct: 99.9, sloP99LatencyMs: 0, sloTtftMs: null }),
    c("rollout.setWeights", "not summing to 100", "weights", { ...ref(fx), weights: [{ endpointVersionId: fx.versionId, weight: 90 }] }),
    c("rollout.setWeights", "with a weight over 100", "weights", { ...ref(fx), weights: [{ endpointVersionId: fx.versionId, weight: 101 }] }),
    c("rollout.deploy", "of no replica", "replicas", { ...ref(fx), modelVersionId: fx.modelVersionId, replicas: 0 }),
    c("rollout.promote", "with a negative drain time", "drainTimeoutSeconds", { ...ref(fx), endpointVersionId: fx.versionId, drainTimeoutSeconds: -1 }),
    c("rollout.blueGreen", "kept warm for two days", "keepWarmSeconds", { ...ref(fx), endpointVersionId: fx.versionId, keepWarmSeconds: 172_800 }),
    c("rollout.rollback", "from a revision that is not a whole number", "expectedRevision", { endpointId: fx.endpointId, expectedRevision: 1.5 }),
    c("rollout.removeVersion", "with a drain of two hours", "drainTimeoutSeconds", { ...ref(fx), endpointVersionId: fx.versionId, drainTimeoutSeconds: 7200 }),
    c("rollout.startPlan", "whose steps do not end at 100", "steps", { ...ref(fx), canaryVersionId: fx.versionId, steps: [{ weight: 5, holdSeconds: 60 }] }),
    c("rollout.planAction", "with an unknown action", "action", { rolloutId: "r1", action: "explode", expectedRevision: 1 }),
    c("tenant.create", "with an empty name", "name", { name: " ", slug: `t-${uid()}` }),
    c("tenant.update", "with an unknown status", "status", { id: fx.tenantId, expectedUpdatedAt: new Date(), status: "deleted" }),
    c("tenant.update", "setting offboarded as a status", "status", { id: fx.tenantId, expectedUpdatedAt: new Date(), status: "offboarded" }),
    c("tenant.update", "with a credit limit in words", "creditLimit", { id: fx.tenantId, expectedUpdatedAt: new Date(), creditLimit: "a lot" }),
    c("tenant.update", "with 0 requests per minute", "rpmLimit", { id: fx.tenantId, expectedUpdatedAt: new Date(), rpmLimit: 0 }),
    c("tenant.update", "with a VERBIS number of spaces and symbols", "verbisNumber", { id: fx.tenantId, expectedUpdatedAt: new Date(), verbisNumber: "no #!" }),
    c("tenant.update", "with an agreement signed next year", "processingAgreementSignedAt", { id: fx.tenantId, expectedUpdatedAt: new Date(), processingAgreementSignedAt: new Date(Date.now() + 365 * 86_400_000) }),
    c("tenant.update", "without the version it edits", "expectedUpdatedAt", { id: fx.tenantId, kvkk: true }),
    c("tenant.offboard", "without the slug to confirm", "confirmSlug", { id: fx.tenantId, expectedUpdatedAt: new Date() }),
    c("apiKey.setLimits", "of half a request per minute", "rpmLimit", { id: "k1", rpmLimit: 0.5, tpmLimit: null }),
    c("usage.setOverhead", "with a PUE under 1", "pue", { kind: "energy", amount: "3.2", pue: 0.8, effectiveFrom: new Date(Date.now() + 3_600_000) }),
    c("usage.setOverhead", "spread by an unknown rule", "spread", { kind: "software", amount: "1000", spread: "revenue", effectiveFrom: new Date(Date.now() + 3_600_000) }),
    c("usage.setPlanLimits", "of minus ten tokens per minute", "tpmLimit", { planId: "p1", rpmLimit: null, tpmLimit: -10 }),
    c("model.update", "with an uppercase name", "name", { id: fx.modelId, expectedUpdatedAt: new Date(), name: "Bad Name!" }),
    c("model.retire", "of an empty id", "id", { id: "" }),
    c("model.retireVersion", "of an empty id", "id", { id: "" }),
    c("endpoint.update", "with a region rule that is not one", "regionConstraint", { id: fx.endpointId, expectedRevision: fx.revision, regionConstraint: "Turkey" }),
    c("endpoint.update", "with an unknown replica choice", "replicaChoice", { id: fx.endpointId, expectedRevision: fx.revision, replicaChoice: "random" }),
    c("endpoint.update", "falling back to an endpoint that does not exist", "fallbackEndpointIds", { id: fx.endpointId, expectedRevision: fx.revision, fallbackEndpointIds: ["nope"] }),
    c("endpoint.update", "with a class over 0 prompt tokens", "requestClasses", { id: fx.endpointId, expectedRevision: fx.revision, requestClasses: [{ name: "long", match: { kind: "prompt_tokens_over", tokens: 0 }, endpointId: fx.endpointId }] }),
    c("endpoint.setShadow", "of 120 percent", "percent", { endpointVersionId: fx.versionId, expectedRevision: fx.revision, percent: 120 }),
    c("endpoint.retire", "without the revision it saw", "expectedRevision", { id: fx.endpointId }),
    c("apiKey.create", "with an expiry in the past", "expiresAt", { tenantId: fx.tenantId, name: "old", expiresAt: new Date("2020-01-01") }),
    c("apiKey.create", "for an unknown endpoint", "allowedEndpointIds", { tenantId: fx.tenantId, name: "key", allowedEndpointIds: ["nope"] }),
    c("apiKey.create", "by an admin without a tenant", "tenantId", { name: "key" }),
    c("apiKey.revoke", "of an empty id", "id", { id: "" }),
    c("user.create", "with a short password", "password", { email: `x-${uid()}@t.local`, name: "X Y", password: "short", role: "operator" }),
    c("user.create", "with a bad e-mail", "email", { email: "not-an-email", name: "X Y", password: "long-enough-pw", role: "operator" }),
    c("user.create", "of a tenant user without a tenant", "tenantId", { email: `x-${uid()}@t.local`, name: "X Y", password: "long-enough-pw", role: "tenant" }),
    { path: "user.setRole", name: "user.setRole taking away one's own admin", field: "role", run: (a) => call(a, "user.setRole", { userId: a.userId, role: "operator" }) },
    c("sso.createRule", "with a claim name that is not one", "claim", { claim: "groups; drop", value: "x", role: "operator" }),
    c("sso.createRule", "giving the tenant role without a tenant", "tenantId", { claim: "groups", value: "x", role: "tenant" }),
    c("sso.updateRule", "without the version it saw", "expectedVersion", { id: "r1", claim: "groups", value: "x", role: "operator" }),
    c("sso.deleteRule", "of an empty id", "id", { id: "", expectedVersion: 1 }),
    c("sso.moveRule", "sideways", "direction", { id: "r1", expectedVersion: 1, direction: "left" }),
    c("sso.setSettings", "with passwords as a word", "localPasswords", { localPasswords: "no", expectedVersion: 1 }),
    c("autoscale.set", "with a ceiling below the floor", "maxReplicas", { endpointVersionId: fx.versionId, minReplicas: 3, maxReplicas: 2, signal: "waiting_per_replica", target: 4 }),
    c("autoscale.set", "with a KV-cache target over 100%", "target", { endpointVersionId: fx.versionId, minReplicas: 1, maxReplicas: 2, signal: "kv_cache_usage", target: 80 }),
    c("autoscale.set", "with a signal Kule does not read", "signal", { endpointVersionId: fx.versionId, minReplicas: 1, maxReplicas: 2, signal: "cpu", target: 4 }),
    c("autoscale.remove", "of an empty id", "endpointVersionId", { endpointVersionId: "" }),
    c("autoscale.setColdStart", "with no time to wait", "coldStartTimeoutSeconds", { endpointId: fx.endpointId, coldStartQueueLimit: 10, coldStartTimeoutSeconds: 0 }),
    c("cluster.startReplica", "on a device kind that does not exist", "device", { endpointVersionId: fx.versionId, device: { kind: "tpu", gpuId: "g1" } }),
    c("cluster.registerExternal", "with an FTP URL", "url", { endpointVersionId: fx.versionId, url: "ftp://10.0.0.5", region: "tr-ist" }),
    c("cluster.registerExternal", "with a region that is not one", "region", { endpointVersionId: fx.versionId, url: "http://10.0.0.5:8000", region: "Istanbul" }),
    c("cluster.registerExternal", "with a metrics URL that is not http(s)", "metricsUrl", { endpointVersionId: fx.versionId, url: "http://10.0.0.5:8000", metricsUrl: "file:///etc/passwd", region: "tr-ist" }),
    c("cluster.stopReplica", "with a drain of a day", "drainSeconds", { replicaId: "r1", drainSeconds: 86_400 }),
    c("cluster.startMigChange", "of no GPU", "changes", { changes: [] }),
    c("cluster.cancelMigChange", "of an empty id", "id", { id: "" }),
    c("cluster.applyMig", "with a profile that is not one", "layout", { gpuId: "g1", layout: [{ profile: "9x.1tb", startSlot: 0 }] }),
    c("cluster.setCordon", "with cordoned as a word", "cordoned", { nodeId: "n1", cordoned: "yes" }),
    c("cluster.injectFault", "slowing a replica 500 times", "factor", { type: "slow-replica", replicaId: "r1", factor: 500 }),
    c("cluster.clearFaults", "given a parameter it does not take", "everything", { everything: true }),
    c("usage.setBudget", "of a word", "monthlyBudget", { tenantId: fx.tenantId, monthlyBudget: "lots", hardCap: false }),
    c("usage.addPlanPrice", "from a date in the past", "effectiveFrom", { planId: "p1", effectiveFrom: new Date("2020-01-01"), inputPer1M: "1", outputPer1M: "1", perRequest: "0" }),
    c("usage.setHardwareRate", "for a kind of hardware Kule has not", "kind", { kind: "tpu", key: "v5e", perHour: "1", effectiveFrom: new Date() }),
    c("callLog.export.start", "as XML", "format", { format: "xml", filter: {} }),
    c("callLog.export.start", "headed in Klingon", "locale", { format: "csv", filter: {}, locale: "tlh" }),
    c("callLog.seal.verify", "given a parameter it does not take", "deep", { deep: true }),
    c("kvkk.updateSettings", "destroying once a year", "destructionIntervalDays", { defaultRetentionDays: 365, destructionIntervalDays: 365, sealGraceMinutes: 60 }),
    c("kvkk.setTenantRetention", "of 0 days", "days", { tenantId: fx.tenantId, days: 0 }),
    { ...c("kvkk.setOwnRetention", "of half a day", "days", { days: 0.5 }), as: "tenant" },
    c("kvkk.runDestruction", "given a parameter it does not take", "now", { now: "2030-01-01" }),
    c("kvkk.subject.find", "for an empty identifier", "user", { user: "" }),
    c("kvkk.keys.activate", "of a version named in capitals", "version", { version: "V2" }),
    c("kvkk.keys.retire", "without a version", "version", {}),
    c("kvkk.keys.rekey", "of a million rows at once", "batch", { batch: 1_000_000 }),
    c("kvkk.special.mark", "by an unknown category", "category", { tenantId: fx.tenantId, category: "religious-ish" }),
    c("kvkk.special.mark", "for neither a tenant nor an endpoint", "tenantId", { category: "health" }),
    c("kvkk.special.mark", "with consent recorded for an endpoint", "abroadConsentRef", { endpointId: fx.endpointId, category: "health", abroadConsentRef: "consent-file-7" }),
    c("kvkk.safeguards.create", "by an unknown mechanism", "mechanism", { tenantId: fx.tenantId, destination: "de", importer: "Rechen GmbH", mechanism: "consent", reference: "x", signedAt: "2026-12-01" }),
    c("kvkk.safeguards.create", "for Turkey", "destination", { tenantId: fx.tenantId, destination: "tr", importer: "Rechen GmbH", mechanism: "bcr", reference: "x", signedAt: "2026-12-01" }),
    c("kvkk.safeguards.notified", "with no date", "notifiedAt", { id: "sg1", expectedUpdatedAt: "2026-12-01" }),
    c("kvkk.safeguards.revoke", "without the version read", "expectedUpdatedAt", { id: "sg1", expectedUpdatedAt: "yesterday" }),
    c("kvkk.breaches.create", "aware of it tomorrow", "awareAt", { title: "Lost laptop", description: "A laptop was lost", awareAt: new Date(Date.now() + 86_400_000).toISOString() }),
    c("kvkk.breaches.update", "with an unknown status", "status", { id: "b1", expectedUpdatedAt: "2026-12-01", title: "Lost laptop", description: "A laptop was lost", status: "forgotten" }),
    c("kvkk.applications.open", "naming no right under Art. 11", "right", { user: "a@b.c", tenantId: fx.tenantId, channel: "kep", receivedAt: "2026-12-01", identityCheck: "KEP", right: "be_forgotten" }),
    c("kvkk.applications.answer", "with an empty answer", "answer", { id: "a1", expectedUpdatedAt: "2026-12-01", answer: "" }),
    c("kvkk.applications.refuse", "without a reason", "reason", { id: "a1", expectedUpdatedAt: "2026-12-01", reason: "no" }),
    c("kvkk.applications.erase", "by shredding", "method", { id: "a1", expectedUpdatedAt: "2026-12-01", method: "shred" }),
    c("kvkk.applications.erase", "answered in a language Kule does not write", "answerLocale", { id: "a1", expectedUpdatedAt: "2026-12-01", method: "delete", answerLocale: "de" }),
    c("kvkk.policy.update", "with no reason for the period", "periodReason", { store: "exports", category: "Exports", dataSubjects: "End users", purpose: "Delivery", legalBasis: "Art. 5(2)(c)", periodDays: 30, periodReason: "", responsible: "DPO", expectedUpdatedAt: "2026-12-01" }),
    c("kvkk.holds.place", "without a reason", "reason", { tenantId: fx.tenantId, reason: "" }),
    c("kvkk.holds.release", "with no id", "id", { id: "" }),
    c("kvkk.updateSettings", "with a Law 5651 minimum of 3 years", "trafficLogMinDays", { defaultRetentionDays: 1200, destructionIntervalDays: 30, sealGraceMinutes: 60, trafficLogMinDays: 1095 }),
    c("kvkk.regions.verify", "with no evidence", "evidence", { replicaId: "r1", evidence: "" }),
    c("cluster.registerExternal", "on a private network the site did not allow (KULE_OUTBOUND_ALLOW)", "url", { endpointVersionId: fx.versionId, url: "https://10.0.0.5:8000", region: "tr-ist" }),
    c("cluster.registerExternal", "at Kule's own PostgreSQL", "url", { endpointVersionId: fx.versionId, url: "http://127.0.0.1:5432", region: "tr-ist" }),
    c("cluster.registerExternal", "with metrics at the cloud metadata address", "metricsUrl", { endpointVersionId: fx.versionId, url: "http://127.0.0.1:9", metricsUrl: "http://[::ffff:169.254.169.254]/latest/meta-data", region: "tr-ist" }),
    c("cluster.registerExternal", "over plain HTTP to another host", "url", { endpointVersionId: fx.versionId, url: "http://10.0.0.5:8000", region: "tr-ist" }),
    c("kvkk.subject.export", "as PDF", "format", { requestId: "req1", format: "pdf" }),
    c("kvkk.subject.destroy", "by shredding", "method", { requestId: "req1", method: "shred" }),
    c("alert.createReceiver", "with a webhook that is not http(s)", "settings", { kind: "webhook", name: "bad-hook", settings: { url: "ftp://example.com/x" } }),
    c("alert.createReceiver", "with an SMTP server Alertmanager refuses (no port)", "settings", { kind: "email", name: "bad-mail", settings: { to: "ops@example.com", from: "kule@example.com", smarthost: "smtp.example.com" } }),
    c("alert.createReceiver", "with a webhook at the cloud metadata address", "settings", { kind: "webhook", name: "meta-hook", settings: { url: "http://169.254.169.254/latest/meta-data/" } }),
    c("alert.createReceiver", "with an SMTP server that is Kule's own PostgreSQL", "settings", { kind: "email", name: "pg-mail", settings: { to: "ops@example.com", from: "kule@example.com", smarthost: "127.0.0.1:5432" } }),
    c("alert.updateReceiver", "routing a severity that does not exist", "severities", { id: "x", expectedRevision: 1, kind: "slack", name: "team", settings: { url: "https://hooks.slack.com/x" }, severities: ["critical"] }),
    c("alert.deleteReceiver", "without an id", "id", {}),
    c("alert.createSilence", "for ever", "minutes", { endpointSlug: "chat", minutes: 100_000, comment: "forever" }),
    c("alert.createSilence", "naming nothing to silence", "endpointSlug", { minutes: 30, comment: "what?" }),
    c("alert.expireSilence", "with a made-up id", "silenceId", { silenceId: "nope" }),
  ];
}
