import { beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { caller, makeActor, makeEndpoint, makeTenant, testDb, uid } from "../test/harness.ts";
import { hashApiKey } from "../auth/api-key-secret.ts";
import { authenticate } from "../auth/authenticate.ts";
import { hashPassword } from "../auth/password.ts";
import { loadActor } from "../trpc/context.ts";
import type { Actor } from "../auth/actor.ts";

let admin: Actor;
let operator: Actor;
let operator2: Actor;

beforeAll(async () => {
  [admin, operator, operator2] = await Promise.all([makeActor("admin"), makeActor("operator"), makeActor("operator")]);
});

/** As if a replica of the version had turned ready (the cluster tests cover that path). */
const markReady = (endpointVersionId: string) => testDb().endpointVersion.update({ where: { id: endpointVersionId }, data: { state: "ready" } });

async function errorOf(p: Promise<unknown>): Promise<TRPCError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(TRPCError);
  return e as TRPCError;
}

describe("audit events", () => {
  it("a mutation records who did what, with the state after, in the audit log", async () => {
    const name = `audited-${uid()}`;
    const model = await caller(operator).model.create({ name, task: "vision", description: "YOLO" });
    const events = await caller(admin).audit.list({ action: "model.create", actorEmail: operator.email });
    const ev = events.items.find((e) => e.targetId === model.id);
    expect(ev).toMatchObject({ actorId: operator.userId, actorEmail: operator.email, action: "model.create", targetType: "model", ip: "127.0.0.1" });
    expect(ev?.after).toMatchObject({ name, task: "vision" });
  });

  it("a weight change records the split before and after", async () => {
    const { endpoint, model } = await makeEndpoint();
    const withV2 = await caller(operator).endpoint.addVersion({ endpointId: endpoint.id, modelVersionId: model.versions[1]!.id, expectedRevision: endpoint.revision });
    const [v1, v2] = withV2.versions;
    await markReady(v2!.id);
    await caller(operator).rollout.setWeights({
      endpointId: endpoint.id,
      expectedRevision: withV2.revision,
      weights: [
        { endpointVersionId: v1!.id, weight: 95 },
        { endpointVersionId: v2!.id, weight: 5 },
      ],
    });
    const { items } = await caller(admin).audit.list({ action: "endpoint.weights.set" });
    const ev = items.find((e) => e.targetId === endpoint.id);
    expect(ev?.before).toEqual([
      { version: "1.0", weight: 100 },
      { version: "1.1", weight: 0 },
    ]);
    expect(ev?.after).toEqual([
      { version: "1.0", weight: 95 },
      { version: "1.1", weight: 5 },
    ]);
  });

  it("pages through events newest first without repeats", async () => {
    for (let i = 0; i < 5; i++) await caller(admin).tenant.create({ name: `Paged ${i}`, slug: `paged-${uid()}` });
    const first = await caller(admin).audit.list({ limit: 3, action: "tenant.create" });
    const second = await caller(admin).audit.list({ limit: 3, action: "tenant.create", cursor: first.nextCursor });
    expect(first.items).toHaveLength(3);
    const ids = [...first.items, ...second.items].map((e) => BigInt(e.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => (a > b ? -1 : 1))).toEqual(ids);
  });
});

describe("concurrent edits", () => {
  it("the second operator moving the same split from a stale view gets CONFLICT and the current state", async () => {
    const { endpoint, model } = await makeEndpoint();
    const loaded = await caller(operator).endpoint.addVersion({ endpointId: endpoint.id, modelVersionId: model.versions[1]!.id, expectedRevision: endpoint.revision });
    const [v1, v2] = loaded.versions;
    await markReady(v2!.id);
    const split = (a: number) => [
      { endpointVersionId: v1!.id, weight: a },
      { endpointVersionId: v2!.id, weight: 100 - a },
    ];
    // Both loaded the page at the same revision.
    await caller(operator).rollout.setWeights({ endpointId: endpoint.id, expectedRevision: loaded.revision, weights: split(80) });
    const err = await errorOf(caller(operator2).rollout.setWeights({ endpointId: endpoint.id, expectedRevision: loaded.revision, weights: split(50) }));
    expect(err.code).toBe("CONFLICT");
    expect(err.message).toMatch(/changed this endpoint/);
    const now = await caller(operator).endpoint.get({ id: endpoint.id });
    expect(now.versions.map((v) => v.weight)).toEqual([80, 20]);
  });

  it("refuses to give traffic to a version with no ready replica, and changes nothing", async () => {
    const { endpoint, model } = await makeEndpoint();
    const loaded = await caller(operator).endpoint.addVersion({ endpointId: endpoint.id, modelVersionId: model.versions[1]!.id, expectedRevision: endpoint.revision });
    const [v1, v2] = loaded.versions;
    const err = await errorOf(
      caller(operator).rollout.setWeights({
        endpointId: endpoint.id,
        expectedRevision: loaded.revision,
        weights: [
          { endpointVersionId: v1!.id, weight: 95 },
          { endpointVersionId: v2!.id, weight: 5 },
        ],
      }),
    );
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toMatch(/1\.1 has no ready replica/);
    const now = await caller(operator).endpoint.get({ id: endpoint.id });
    expect([now.revision, now.versions.map((v) => v.weight)]).toEqual([loaded.revision, [100, 0]]);
  });

  it("a taken model name is a CONFLICT naming the field", async () => {
    const name = `dup-${uid()}`;
    await caller(operator).model.create({ name, task: "llm" });
    const err = await errorOf(caller(operator).model.create({ name, task: "llm" }));
    expect(err.code).toBe("CONFLICT");
    expect((err.cause as { field?: string }).field).toBe("name");
  });
});

describe("API keys", () => {
  it("the secret is returned once and only its SHA-256 is stored", async () => {
    const tenant = await makeTenant();
    const member = await makeActor("tenant", tenant.id);
    const { key, secret } = await caller(member).apiKey.create({ name: "checkout" });
    expect(secret).toMatch(/^kule_[A-Za-z0-9]{40}$/);
    expect(secret.startsWith(key.prefix)).toBe(true);
    const row = await testDb().apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.secretHash).toBe(hashApiKey(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    const listed = await caller(member).apiKey.list({});
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(listed[0]).not.toHaveProperty("secretHash");
    const audit = await testDb().auditEvent.findFirstOrThrow({ where: { targetId: key.id } });
    expect(JSON.stringify([audit.before, audit.after])).not.toContain(row.secretHash);
  });

  it("revoking marks the key revoked and is idempotent", async () => {
    const tenant = await makeTenant();
    const { key } = await caller(admin).apiKey.create({ tenantId: tenant.id, name: "to revoke" });
    const revoked = await caller(admin).apiKey.revoke({ id: key.id });
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    const again = await caller(admin).apiKey.revoke({ id: key.id });
    expect(again.revokedAt).toEqual(revoked.revokedAt);
  });
});

describe("sign-in", () => {
  it("accepts the right password, refuses a wrong one, and slows down repeated failures", async () => {
    const email = `signin-${uid()}@test.local`;
    await testDb().user.create({ data: { email, name: "Sign In", passwordHash: await hashPassword("correct-horse-battery"), membership: { create: { role: "operator" } } } });
    expect(await authenticate(testDb(), email, "correct-horse-battery", 3)).toMatchObject({ ok: true, email });
    for (let i = 0; i < 3; i++) expect(await authenticate(testDb(), email, "wrong", 3)).toEqual({ ok: false, reason: "invalid" });
    // Past the free attempts, even the right password must wait.
    const throttled = await authenticate(testDb(), email, "correct-horse-battery", 3);
    expect(throttled).toMatchObject({ ok: false, reason: "throttled" });
    expect((throttled as { waitMs: number }).waitMs).toBeGreaterThan(0);
  });

  it("an unknown e-mail is refused like a wrong password", async () => {
    expect(await authenticate(testDb(), `nobody-${uid()}@test.local`, "whatever", 3)).toEqual({ ok: false, reason: "invalid" });
  });

  it("a user whose membership is removed is signed out on the next request", async () => {
    const actor = await makeActor("operator");
    expect(await loadActor(testDb(), actor.userId)).toMatchObject({ role: "operator" });
    await testDb().membership.delete({ where: { userId: actor.userId } });
    expect(await loadActor(testDb(), actor.userId)).toBeNull();
  });
});
