import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { caller, makeActor, makeEndpoint, testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";

let stopSync: () => void;
beforeAll(() => {
  stopSync = startClusterSync(testDb(), testDrivers());
});
afterAll(() => stopSync?.());

const conflict = (text: string) => (e: unknown) => e instanceof TRPCError && e.code === "CONFLICT" && e.message.includes(text);

describe("editing and retiring models, versions and endpoints", () => {
  it("an endpoint's name, stickiness and region rule change with its revision, audited before and after; a stale revision changes nothing", async () => {
    const { endpoint } = await makeEndpoint();
    const op = caller(await makeActor("operator"));
    const after = await op.endpoint.update({ id: endpoint.id, expectedRevision: endpoint.revision, name: "Chat (renamed)", stickySessions: true, regionConstraint: "tr-" });
    expect(after).toMatchObject({ name: "Chat (renamed)", stickySessions: true, regionConstraint: "tr-", revision: endpoint.revision + 1 });
    await expect(op.endpoint.update({ id: endpoint.id, expectedRevision: endpoint.revision, name: "Lost update" })).rejects.toSatisfy(conflict("Someone else changed this endpoint"));
    expect((await testDb().endpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).name).toBe("Chat (renamed)");
    const audit = await testDb().auditEvent.findFirstOrThrow({ where: { action: "endpoint.update", targetId: endpoint.id } });
    // The routing settings edited beside them are recorded too (unchanged here).
    expect(audit.before).toEqual({ name: endpoint.name, stickySessions: false, regionConstraint: null, replicaChoice: "least_outstanding", privatePrefixCache: false, requestClasses: [], fallbackEndpointIds: [] });
    expect(audit.after).toEqual({ name: "Chat (renamed)", stickySessions: true, regionConstraint: "tr-", replicaChoice: "least_outstanding", privatePrefixCache: false, requestClasses: [], fallbackEndpointIds: [] });
    await expect(caller(await makeActor("auditor")).endpoint.update({ id: endpoint.id, expectedRevision: after.revision, name: "x y" })).rejects.toSatisfy((e: unknown) => e instanceof TRPCError && e.code === "FORBIDDEN");
  });

  it("a version with replicas or traffic, an endpoint still called, a model still served: each refuses to retire, saying what depends on it", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey();
    const op = caller(await makeActor("operator"));
    const gw = await startTestGateway();
    const call = () => fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${t.secret}` }, body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "hi" }], max_tokens: 5 }) }).then((r) => r.status);
    try {
      expect(await call()).toBe(200);
      await gw.gateway.callLog.flush();
      const mv = ep.versions[0]!.modelVersionId;
      const model = await testDb().modelVersion.findUniqueOrThrow({ where: { id: mv } });
      await expect(op.model.retireVersion({ id: mv })).rejects.toSatisfy(conflict(`it takes 100% of ${ep.endpoint.slug} (1.0)`));
      await expect(op.model.retireVersion({ id: mv })).rejects.toSatisfy(conflict("1 replica(s) still run it"));
      const loaded = await op.endpoint.get({ id: ep.endpoint.id });
      await expect(op.endpoint.retire({ id: ep.endpoint.id, expectedRevision: loaded.revision })).rejects.toSatisfy(conflict("1 replica(s) still run behind it"));
      await expect(op.endpoint.retire({ id: ep.endpoint.id, expectedRevision: loaded.revision })).rejects.toSatisfy(conflict("it answered 1 call(s) in the last 15 minutes"));
      await expect(op.model.retire({ id: model.modelId })).rejects.toSatisfy(conflict(`endpoint(s) ${ep.endpoint.slug} still serve it`));
      expect((await testDb().endpoint.findUniqueOrThrow({ where: { id: ep.endpoint.id } })).retiredAt).toBeNull();

      // Once nothing runs and nobody calls: the endpoint retires, the gateway answers 404, then the model goes.
      await op.cluster.stopReplica({ replicaId: ep.replicas[0]!.id });
      await testDb().callLog.deleteMany({ where: { endpointId: ep.endpoint.id } });
      const quiet = await op.endpoint.get({ id: ep.endpoint.id });
      const retired = await op.endpoint.retire({ id: ep.endpoint.id, expectedRevision: quiet.revision });
      expect(retired.retiredAt).not.toBeNull();
      await expect.poll(call, { timeout: 1000, interval: 20 }).toBe(404);
      expect((await op.endpoint.catalog()).some((e) => e.id === ep.endpoint.id)).toBe(false);
      await op.model.retire({ id: model.modelId });
      expect(await testDb().modelVersion.count({ where: { modelId: model.modelId, retiredAt: null } })).toBe(0);
      await expect(op.model.addVersion({ modelId: model.modelId, version: "9.9", artifactUri: "s3://m/9.9", format: "vllm", precision: "fp8", parameterCount: 1n, weightBytes: 1n, minGpuMemoryBytes: 1n })).rejects.toSatisfy(conflict("was retired"));
      expect(await testDb().auditEvent.count({ where: { action: { in: ["endpoint.retire", "model.retire"] }, targetId: { in: [ep.endpoint.id, model.modelId] } } })).toBe(2);
    } finally {
      await gw.close();
    }
  });

  it("a retired version cannot be deployed or added again, and a model's edit on a stale copy is refused", async () => {
    const { endpoint, model } = await makeEndpoint();
    const op = caller(await makeActor("operator"));
    await op.model.retireVersion({ id: model.versions[1]!.id });
    await expect(op.endpoint.addVersion({ endpointId: endpoint.id, modelVersionId: model.versions[1]!.id, expectedRevision: endpoint.revision })).rejects.toThrow("modelVersionId: version 1.1 of");
    const m = await testDb().model.findUniqueOrThrow({ where: { id: model.id } });
    await op.model.update({ id: model.id, expectedUpdatedAt: m.updatedAt, description: "Llama for chat" });
    await expect(op.model.update({ id: model.id, expectedUpdatedAt: m.updatedAt, description: "stale" })).rejects.toSatisfy(conflict("Someone else changed"));
    expect((await testDb().model.findUniqueOrThrow({ where: { id: model.id } })).description).toBe("Llama for chat");
  });
});
