import { beforeAll, describe, expect, it } from "vitest";
import { auditCount, httpMutation, makeActor, makeEndpoint, makeNodePool, makeTenant, testDb } from "../test/harness.ts";
import { badInputs, type Fixtures } from "../test/bad-inputs.ts";
import { appRouter } from "./root.ts";
import type { Actor } from "../auth/actor.ts";

let admin: Actor;
let tenantUser: Actor;
let fx: Fixtures;

beforeAll(async () => {
  admin = await makeActor("admin");
  const tenant = await makeTenant();
  tenantUser = await makeActor("tenant", tenant.id);
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

/** Row counts of every table a mutation could write, the settings it could change, and the audit log. */
async function snapshot() {
  const db = testDb();
  const counts = await Promise.all([
    db.model.count(),
    db.modelVersion.count(),
    db.endpoint.count(),
    db.endpointVersion.count(),
    db.tenant.count(),
    db.apiKey.count({ where: { revokedAt: null } }),
    db.user.count(),
    db.replica.count(),
    db.rollout.count(),
    db.planPrice.count(),
    db.hardwareRate.count(),
    db.exportJob.count(),
    db.tenantRetention.count(),
    db.dataSubjectRequest.count(),
    db.destructionRecord.count(),
    db.node.count({ where: { cordoned: true } }),
    db.alertReceiver.count(),
    auditCount(),
  ]);
  const [ep, settings, tenant] = await Promise.all([
    db.endpoint.findUniqueOrThrow({ where: { id: fx.endpointId }, include: { versions: true } }),
    db.kvkkSettings.findUniqueOrThrow({ where: { id: "singleton" } }),
    db.tenant.findUniqueOrThrow({ where: { id: fx.tenantId } }),
  ]);
  return { counts, revision: ep.revision, weights: ep.versions.map((v) => v.weight), slo: ep.sloP99LatencyMs, settings: settings.updatedAt, budget: tenant.monthlyBudget?.toString() ?? null };
}

describe("bad input is a 400 naming the field, and writes nothing", () => {
  it("says why in the reader's language: Turkish for a Turkish page, the field names unchanged", async () => {
    const input = { name: "X", slug: "Has Spaces" };
    const tr = await httpMutation(admin, "tenant.create", input, { locale: "tr" });
    expect(tr.status).toBe(400);
    expect(tr.error?.data.fieldErrors).toMatchObject({ name: ["en az 2 karakter"], slug: ["chat-large gibi küçük harf, rakam ve tek tire"] });
    const en = await httpMutation(admin, "tenant.create", input);
    expect(en.error?.data.fieldErrors).toMatchObject({ name: ["at least 2 characters"] });
  });

  it("covers every mutation of the app", () => {
    const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string } }> } })._def.procedures;
    const mutations = Object.entries(procedures).filter(([, p]) => p._def.type === "mutation").map(([path]) => path);
    const covered = new Set(badInputs({} as Fixtures).map((c) => c.path));
    expect(mutations.filter((m) => !covered.has(m))).toEqual([]);
    expect(mutations.length).toBeGreaterThanOrEqual(37);
  });

  // The cases are listed before the fixtures exist (test names); each runs with the real ones.
  for (const c of badInputs({} as Fixtures)) {
    it(c.name, async () => {
      const before = await snapshot();
      const res = await badInputs(fx).find((x) => x.name === c.name)!.run(c.as === "tenant" ? tenantUser : admin);
      expect(res.status).toBe(400);
      expect(res.error?.data.code).toBe("BAD_REQUEST");
      expect(Object.keys(res.error?.data.fieldErrors ?? {})).toContain(c.field);
      expect(res.error?.data.fieldErrors?.[c.field]?.[0]).toMatch(/\w/);
      expect(await snapshot()).toEqual(before);
    });
  }
});
