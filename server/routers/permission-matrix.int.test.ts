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
import { MATRIX, type Fixtures } from "./permission-matrix.cases.ts";
import type { Actor } from "../auth/actor.ts";
import type { Role } from "../db/generated/enums.ts";
import { newApiKeySecret } from "../auth/api-key-secret.ts";
import { knownSecrets, leakedSecret, PLANTED_SMTP_PASSWORD } from "../test/secret-sweep.ts";

const ROLES: Role[] = ["admin", "operator", "auditor", "tenant"];
let actors: Record<Role, Actor>;
let fx: Fixtures;
let am: RunningAlertmanager;
let secrets: string[] = [];
afterAll(async () => {
  useAlertmanager(null);
  await am?.stop();
});

async function call(actor: Actor | null, path: string, input: unknown) {
  // Routers nest (callLog.export.start): walk the caller down the path.
  const fn = path.split(".").reduce((o: unknown, k) => (o as Record<string, unknown>)[k], caller(actor)) as (i: unknown) => Promise<unknown>;
  return fn(input);
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

beforeAll(async () => {
  // The silences live in Alertmanager: a real one, routing to a webhook nobody answers.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kule-matrix-am-"));
  const options = { kuleWebhookUrl: "http://127.0.0.1:9/api/alerts/webhook", kuleTokenFile: "/dev/null" };
  const running = await startAlertmanager({ dataDir: dir, port: await freePort(), config: options });
  if (!running) throw new Error("No Alertmanager binary: apt-get install -y prometheus-alertmanager");
  am = running;
  useAlertmanager({ url: am.url, configFile: am.configFile, options });
  const db = testDb();
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
    alertmanagerUrl: am.url,
    ...(await simFixtures()),
  };
  await db.alertReceiver.create({ data: { kind: "email", name: `sweep-${uid()}`, settings: { to: "ops@example.com", from: "kule@example.com", smarthost: "smtp.example.com:587", username: "kule", password: PLANTED_SMTP_PASSWORD, requireTls: true }, endpointSlugs: [], severities: [] } });
  secrets = await knownSecrets();
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
        let answer: unknown;
        expect(await codeOf(call(actor, path, await c.input(fx, actor)).then((a) => (answer = a)))).toBe(expected);
        // Every answer, to every role, is swept for the secrets Kule keeps (server/test/secret-sweep.ts).
        expect(leakedSecret(answer, secrets)).toBeNull();
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
