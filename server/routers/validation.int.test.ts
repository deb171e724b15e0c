import { beforeAll, describe, expect, it } from "vitest";
import { auditCount, httpMutation, makeActor, makeEndpoint, makeNodePool, makeTenant, testDb, uid } from "../test/harness.ts";
import type { Actor } from "../auth/actor.ts";

let admin: Actor;
let fx: { otherModelVersionId: string; tenantId: string; endpointId: string; revision: number; versionId: string; modelId: string; modelVersionId: string; poolId: string };

beforeAll(async () => {
  admin = await makeActor("admin");
  const tenant = await makeTenant();
  const { endpoint, model } = await makeEndpoint();
  const pool = await makeNodePool();
  const other = await makeEndpoint();
  fx = {
    otherModelVersionId: other.model.versions[0]!.id,
    tenantId: tenant.id,
    endpointId: endpoint.id,
    revision: endpoint.revision,
    versionId: endpoint.versions[0]!.id,
    modelId: model.id,
    modelVersionId: model.versions[0]!.id,
    poolId: pool.id,
  };
});

/** Row counts of every table a mutation could write, plus the audit log. */
async function snapshot() {
  const db = testDb();
  const [models, versions, endpoints, endpointVersions, tenants, keys, users, audit, ep] = await Promise.all([
    db.model.count(),
    db.modelVersion.count(),
    db.endpoint.count(),
    db.endpointVersion.count(),
    db.tenant.count(),
    db.apiKey.count(),
    db.user.count(),
    auditCount(),
    db.endpoint.findUniqueOrThrow({ where: { id: fx.endpointId }, include: { versions: true } }),
  ]);
  return { models, versions, endpoints, endpointVersions, tenants, keys, users, audit, revision: ep.revision, weights: ep.versions.map((v) => v.weight) };
}

/** Each case: a mutation with one bad field, and the field the error must name. */
const call = httpMutation;
const CASES: { name: string; field: string; run: (a: Actor) => ReturnType<typeof httpMutation> }[] = [
  { name: "model.create with an uppercase name", field: "name", run: (a) => call(a, "model.create", { name: "Bad Name!", task: "llm" }) },
  { name: "model.create with an unknown task", field: "task", run: (a) => call(a, "model.create", { name: `ok-${uid()}`, task: "poetry" as never }) },
  {
    name: "model.addVersion with a non-URI artifact",
    field: "artifactUri",
    run: (a) =>
      call(a, "model.addVersion", { modelId: fx.modelId, version: "3.0", artifactUri: "not a uri", format: "vllm", precision: "fp8", parameterCount: "1", weightBytes: "10", minGpuMemoryBytes: "20" }),
  },
  {
    name: "model.addVersion with GPU memory below the weights",
    field: "minGpuMemoryBytes",
    run: (a) =>
      call(a, "model.addVersion", { modelId: fx.modelId, version: "3.1", artifactUri: "s3://a/b", format: "vllm", precision: "fp8", parameterCount: "1", weightBytes: "100", minGpuMemoryBytes: "10" }),
  },
  {
    name: "model.addVersion with a negative parameter count",
    field: "parameterCount",
    run: (a) =>
      call(a, "model.addVersion", { modelId: fx.modelId, version: "3.2", artifactUri: "s3://a/b", format: "vllm", precision: "fp8", parameterCount: "-5", weightBytes: "100", minGpuMemoryBytes: "200" }),
  },
  {
    name: "endpoint.create with a bad slug",
    field: "slug",
    run: (a) =>
      call(a, "endpoint.create", { name: "Bad", slug: "Has Spaces", modelId: fx.modelId, modelVersionId: fx.modelVersionId, engine: "vllm", nodePoolId: fx.poolId, sloAvailabilityPct: 99.9, sloP99LatencyMs: 100 }),
  },
  {
    name: "endpoint.create with an availability over 99.999",
    field: "sloAvailabilityPct",
    run: (a) =>
      call(a, "endpoint.create", { name: "Bad", slug: `s-${uid()}`, modelId: fx.modelId, modelVersionId: fx.modelVersionId, engine: "vllm", nodePoolId: fx.poolId, sloAvailabilityPct: 100, sloP99LatencyMs: 100 }),
  },
  {
    name: "endpoint.create with a version of another model",
    field: "modelVersionId",
    run: (a) =>
      call(a, "endpoint.create", { name: "Bad", slug: `s-${uid()}`, modelId: fx.modelId, modelVersionId: fx.otherModelVersionId, engine: "vllm", nodePoolId: fx.poolId, sloAvailabilityPct: 99, sloP99LatencyMs: 100 }),
  },
  {
    name: "rollout.setWeights not summing to 100",
    field: "weights",
    run: (a) => call(a, "rollout.setWeights", { endpointId: fx.endpointId, expectedRevision: fx.revision, weights: [{ endpointVersionId: fx.versionId, weight: 90 }] }),
  },
  {
    name: "rollout.setWeights with a weight over 100",
    field: "weights",
    run: (a) => call(a, "rollout.setWeights", { endpointId: fx.endpointId, expectedRevision: fx.revision, weights: [{ endpointVersionId: fx.versionId, weight: 101 }] }),
  },
  {
    name: "endpoint.updateSlo with an availability of 100%",
    field: "sloAvailabilityPct",
    run: (a) => call(a, "endpoint.updateSlo", { endpointId: fx.endpointId, expectedRevision: fx.revision, sloAvailabilityPct: 100, sloP99LatencyMs: 500, sloTtftMs: null }),
  },
  {
    name: "endpoint.updateSlo with a p99 latency of 0 ms",
    field: "sloP99LatencyMs",
    run: (a) => call(a, "endpoint.updateSlo", { endpointId: fx.endpointId, expectedRevision: fx.revision, sloAvailabilityPct: 99.9, sloP99LatencyMs: 0, sloTtftMs: null }),
  },
  { name: "tenant.create with an empty name", field: "name", run: (a) => call(a, "tenant.create", { name: " ", slug: `t-${uid()}` }) },
  { name: "tenant.update with an unknown status", field: "status", run: (a) => call(a, "tenant.update", { id: fx.tenantId, status: "deleted" as never }) },
  { name: "apiKey.create with an expiry in the past", field: "expiresAt", run: (a) => call(a, "apiKey.create", { tenantId: fx.tenantId, name: "old", expiresAt: new Date("2020-01-01") }) },
  { name: "apiKey.create for an unknown endpoint", field: "allowedEndpointIds", run: (a) => call(a, "apiKey.create", { tenantId: fx.tenantId, name: "key", allowedEndpointIds: ["nope"] }) },
  { name: "apiKey.create by an admin without a tenant", field: "tenantId", run: (a) => call(a, "apiKey.create", { name: "key" }) },
  { name: "user.create with a short password", field: "password", run: (a) => call(a, "user.create", { email: `x-${uid()}@t.local`, name: "X Y", password: "short", role: "operator" }) },
  { name: "user.create with a bad e-mail", field: "email", run: (a) => call(a, "user.create", { email: "not-an-email", name: "X Y", password: "long-enough-pw", role: "operator" }) },
  { name: "user.create of a tenant user without a tenant", field: "tenantId", run: (a) => call(a, "user.create", { email: `x-${uid()}@t.local`, name: "X Y", password: "long-enough-pw", role: "tenant" }) },
  {
    name: "cluster.registerExternal with a metrics URL that is not http(s)",
    field: "metricsUrl",
    run: (a) => call(a, "cluster.registerExternal", { endpointVersionId: fx.versionId, url: "http://10.0.0.5:8000", metricsUrl: "file:///etc/passwd", region: "tr-ist" }),
  },
  { name: "user.setRole taking away one's own admin", field: "role", run: (a) => call(a, "user.setRole", { userId: a.userId, role: "operator" }) },
];

describe("bad input is a 400 naming the field, and writes nothing", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const before = await snapshot();
      const res = await c.run(admin);
      expect(res.status).toBe(400);
      expect(res.error?.data.code).toBe("BAD_REQUEST");
      expect(Object.keys(res.error?.data.fieldErrors ?? {})).toContain(c.field);
      expect(res.error?.data.fieldErrors?.[c.field]?.[0]).toMatch(/\w/);
      expect(await snapshot()).toEqual(before);
    });
  }
});
