import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor, testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { DrainWorker } from "./drain.ts";

let stopSync: () => void;
let gw: Awaited<ReturnType<typeof startTestGateway>>;

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
  stopSync?.();
});

/** A streamed chat through the gateway: the version that served it, and whether it ended properly. */
async function stream(secret: string, slug: string, onFirstChunk: () => void) {
  const res = await fetch(`${gw.base}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ model: slug, messages: [{ role: "user", content: "Uzun bir hikâye anlat." }], max_tokens: 40, stream: true }),
  });
  const version = res.headers.get("x-kule-version");
  let text = "";
  let first = true;
  const reader = res.body!.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    text += Buffer.from(r.value).toString();
    if (first) {
      first = false;
      onFirstChunk();
    }
  }
  const content = text.split("\n").filter((l) => l.startsWith("data: {")).map((l) => JSON.parse(l.slice(6)).choices?.[0]?.delta?.content ?? "").join("");
  return { status: res.status, version, done: text.trimEnd().endsWith("data: [DONE]"), content, endedAt: Date.now() };
}

describe("drain on promote", () => {
  it("long streams that started on the old version all complete; new requests go to the new one; then the old replicas stop", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }, { weight: 0, device: { host: "cpu-1" } }]);
    const [oldV, newV] = ep.versions;
    const t = await tenantWithKey();
    await gw.gateway.config.reload();
    const operator = caller(await makeActor("operator"));
    // Slow the old version's replica so its streams take seconds.
    const oldReplica = ep.replicas[0]!;
    await operator.cluster.injectFault({ type: "slow-replica", replicaId: oldReplica.id, factor: 100 });

    let started = 0;
    const streams = Array.from({ length: 6 }, () => stream(t.secret, ep.endpoint.slug, () => started++));
    await expect.poll(() => started, { timeout: 10_000, interval: 20 }).toBe(6);

    const promotedAt = Date.now();
    const rev = (await operator.endpoint.get({ id: ep.endpoint.id })).revision;
    await operator.rollout.promote({ endpointId: ep.endpoint.id, endpointVersionId: newV!.id, expectedRevision: rev, drainTimeoutSeconds: 60 });
    const drains = new DrainWorker({ db: testDb(), drivers: testDrivers() });
    const loop = setInterval(() => void drains.tick().catch(() => {}), 200);
    try {
      // New calls go to the new version within a second.
      await expect
        .poll(async () => (await fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${t.secret}` }, body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "x" }], max_tokens: 2 }) })).headers.get("x-kule-version"), { timeout: 1000, interval: 50 })
        .toBe("2.0");
      const results = await Promise.all(streams);
      for (const r of results) {
        expect(r).toMatchObject({ status: 200, version: "1.0", done: true });
        expect(r.content.length).toBeGreaterThan(20);
      }
      // The streams outlived the promote: the drain really waited for them.
      expect(Math.min(...results.map((r) => r.endedAt))).toBeGreaterThan(promotedAt + 1500);
      await expect.poll(async () => (await testDb().endpointVersion.findUniqueOrThrow({ where: { id: oldV!.id } })).state, { timeout: 15_000, interval: 200 }).toBe("retired");
      const stopped = await testDb().replica.findUniqueOrThrow({ where: { id: oldReplica.id } });
      expect(stopped.state).toBe("stopped");
      expect(stopped.stoppedAt!.getTime()).toBeGreaterThanOrEqual(Math.max(...results.map((r) => r.endedAt)) - 50);
    } finally {
      clearInterval(loop);
      await drains.settle();
    }
  }, 60_000);
});
