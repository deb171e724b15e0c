import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash, randomUUID } from "node:crypto";
import OpenAI from "openai";
import { caller, makeActor, testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { countTokens } from "../cluster/sim/tokens.ts";
import { hashSubject } from "../call-log/subject-hash.ts";

let gw: Awaited<ReturnType<typeof startTestGateway>>;
let stopSync: () => void;
let chat: Awaited<ReturnType<typeof servedEndpoint>>;
let embed: Awaited<ReturnType<typeof servedEndpoint>>;
let tenant: Awaited<ReturnType<typeof tenantWithKey>>;
let client: OpenAI;

const clientFor = (secret: string) => new OpenAI({ baseURL: `${gw.base}/v1`, apiKey: secret, maxRetries: 0 });
const post = (path: string, secret: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${gw.base}${path}`, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  chat = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
  embed = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }], "embedding");
  tenant = await tenantWithKey();
  gw = await startTestGateway();
  client = clientFor(tenant.secret);
});
afterAll(async () => {
  await gw?.close();
  stopSync?.();
});

describe("the official openai client through the gateway", () => {
  it("completes a chat, with the version and request id in the answer's headers", async () => {
    const { data, response } = await client.chat.completions.create({ model: chat.endpoint.slug, messages: [{ role: "user", content: "Merhaba!" }], max_tokens: 12 }).withResponse();
    expect(data.choices[0]!.message.content).toBeTruthy();
    expect(data.usage?.completion_tokens).toBe(countTokens(data.choices[0]!.message.content!));
    expect(response.headers.get("x-kule-version")).toBe("1.0");
    expect(response.headers.get("x-kule-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("measures its own time per call apart from the replica's, as kule_gateway_overhead_seconds", async () => {
    const series = async (name: string) => {
      const text = await gw.gateway.metrics.registry.getSingleMetricAsString(name);
      const value = (suffix: string) => text.split("\n").filter((l) => l.startsWith(`${name}${suffix}{`) && l.includes(`endpoint="${chat.endpoint.slug}"`)).reduce((s, l) => s + Number(l.split(" ").at(-1)), 0);
      return { count: value("_count"), sum: value("_sum") };
    };
    const [overheadBefore, durationBefore] = [await series("kule_gateway_overhead_seconds"), await series("kule_gateway_request_duration_seconds")];
    for (let i = 0; i < 5; i++) await client.chat.completions.create({ model: chat.endpoint.slug, messages: [{ role: "user", content: "Selam" }], max_tokens: 8 });
    const [overhead, duration] = [await series("kule_gateway_overhead_seconds"), await series("kule_gateway_request_duration_seconds")];
    expect(overhead.count - overheadBefore.count).toBe(5);
    const own = overhead.sum - overheadBefore.sum;
    const whole = duration.sum - durationBefore.sum;
    // The simulated replica takes tens of milliseconds to answer; the gateway's own share is a small part of each call.
    expect(own).toBeGreaterThan(0);
    expect(own).toBeLessThan(whole / 2);
  });

  it("streams chunks as they come, before the answer is complete", async () => {
    const stream = await client.chat.completions.create({ model: chat.endpoint.slug, messages: [{ role: "user", content: "Tell me a long story." }], max_tokens: 100, stream: true });
    const times: number[] = [];
    let text = "";
    for await (const c of stream) {
      times.push(performance.now());
      text += c.choices[0]?.delta?.content ?? "";
      // The gateway asked the upstream for usage for its own call log; the client did not, so it never sees it.
      expect(c.usage ?? null).toBeNull();
    }
    expect(times.length).toBeGreaterThan(10);
    expect(times.at(-1)! - times[0]!).toBeGreaterThan(5);
    expect(countTokens(text)).toBeGreaterThan(10);
  });

  it("logs TTFT measured at the gateway for streams, and none for whole answers", async () => {
    const t = await tenantWithKey();
    await gw.gateway.config.reload();
    const c = clientFor(t.secret);
    const stream = await c.chat.completions.create({ model: chat.endpoint.slug, messages: [{ role: "user", content: "stream me" }], max_tokens: 30, stream: true });
    for await (const chunk of stream) void chunk;
    await c.chat.completions.create({ model: chat.endpoint.slug, messages: [{ role: "user", content: "whole" }], max_tokens: 30 });
    await gw.gateway.callLog.flush();
    const rows = await testDb().callLog.findMany({ where: { tenantId: t.tenant.id }, orderBy: { startedAt: "asc" } });
    expect(rows).toHaveLength(2);
    expect(rows[0]!.ttftMs).toBeGreaterThanOrEqual(0);
    expect(rows[0]!.ttftMs!).toBeLessThanOrEqual(rows[0]!.endedAt.getTime() - rows[0]!.startedAt.getTime());
    expect(rows[1]!.ttftMs).toBeNull();
  });

  it("stores the `user` identifier only as its keyed hash, and nothing when there is none", async () => {
    const t = await tenantWithKey();
    await gw.gateway.config.reload();
    const c = clientFor(t.secret);
    await c.chat.completions.create({ model: chat.endpoint.slug, messages: [{ role: "user", content: "hi" }], max_tokens: 5, user: "ayse@example.com.tr" });
    await c.chat.completions.create({ model: chat.endpoint.slug, messages: [{ role: "user", content: "hi" }], max_tokens: 5 });
    await gw.gateway.callLog.flush();
    const rows = await testDb().callLog.findMany({ where: { tenantId: t.tenant.id }, orderBy: { startedAt: "asc" } });
    expect(rows.map((r) => r.userHash)).toEqual([hashSubject("ayse@example.com.tr"), null]);
    expect(JSON.stringify(rows)).not.toContain("ayse@");
  });

  it("passes usage through when the client asks for it", async () => {
    const stream = await client.chat.completions.create({ model: chat.endpoint.slug, messages: [{ role: "user", content: "Hi" }], max_tokens: 5, stream: true, stream_options: { include_usage: true } });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const c of stream) usage = c.usage ?? usage;
    expect(usage?.prompt_tokens).toBe(1);
  });

  it("answers embeddings", async () => {
    const r = await client.embeddings.create({ model: embed.endpoint.slug, input: ["bir", "iki"] });
    expect(r.data).toHaveLength(2);
    expect(r.data[0]!.embedding).toHaveLength(1024);
  });

  it("lists only the models the key may call", async () => {
    const limited = await tenantWithKey({ allowedEndpointIds: [embed.endpoint.id] });
    await gw.gateway.config.reload();
    const models = await clientFor(limited.secret).models.list();
    expect(models.data.map((m) => m.id)).toEqual([embed.endpoint.slug]);
  });

  it("surfaces errors as the client's typed errors", async () => {
    await expect(clientFor("kule_not_a_real_key").chat.completions.create({ model: chat.endpoint.slug, messages: [{ role: "user", content: "x" }] })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(client.chat.completions.create({ model: "no-such-endpoint", messages: [{ role: "user", content: "x" }] })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const limited = await tenantWithKey({ rpmLimit: 2 });
    await gw.gateway.config.reload();
    const c = clientFor(limited.secret);
    const ask = () => c.chat.completions.create({ model: chat.endpoint.slug, messages: [{ role: "user", content: "x" }], max_tokens: 1 });
    await ask();
    await ask();
    const err = await ask().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(Number((err as InstanceType<typeof OpenAI.RateLimitError>).headers?.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("keys, limits and bad requests", () => {
  it("refuses with 429 once a key's tokens per minute are spent, naming that limit; the refused call takes nothing from the tenant's requests", async () => {
    const t = await tenantWithKey({ tpmLimit: 5 });
    await testDb().tenant.update({ where: { id: t.tenant.id }, data: { rpmLimit: 2 } });
    // A second key of the same tenant, without limits of its own: it shares the tenant's 2 requests a minute.
    const other = `kule_test${randomUUID().replace(/-/g, "")}`;
    await testDb().apiKey.create({ data: { tenantId: t.tenant.id, name: "other", prefix: other.slice(0, 20), secretHash: createHash("sha256").update(other).digest("hex") } });
    await gw.gateway.config.reload();
    const body = { model: chat.endpoint.slug, messages: [{ role: "user", content: "Merhaba, nasılsın bugün?" }], max_tokens: 12 };
    expect((await post("/v1/chat/completions", t.secret, body)).status).toBe(200); // its tokens put the key's bucket in debt
    await expect.poll(async () => (await post("/v1/chat/completions", t.secret, body)).status, { timeout: 10_000, interval: 50 }).toBe(429);
    const refused = await post("/v1/chat/completions", t.secret, body);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "rate_limit_exceeded", message: expect.stringContaining("tokens per minute on this API key") });
    // The calls refused for tokens took none of the tenant's requests: the other key has the second one.
    expect((await post("/v1/chat/completions", other, body)).status).toBe(200);
    const third = await post("/v1/chat/completions", other, body);
    expect(third.status).toBe(429);
    expect(((await third.json()) as { error: { message: string } }).error.message).toContain("requests per minute on this tenant");
  });

  it("refuses revoked and expired keys with 401, and a key not allowed on the endpoint with 404", async () => {
    const revoked = await tenantWithKey({ revoked: true });
    const expired = await tenantWithKey({ expiresAt: new Date(Date.now() - 1000) });
    const other = await tenantWithKey({ allowedEndpointIds: [embed.endpoint.id] });
    await gw.gateway.config.reload();
    const body = { model: chat.endpoint.slug, messages: [{ role: "user", content: "x" }] };
    const r1 = await post("/v1/chat/completions", revoked.secret, body);
    expect(r1.status).toBe(401);
    expect(((await r1.json()) as { error: { message: string } }).error.message).toMatch(/revoked/);
    expect((await post("/v1/chat/completions", expired.secret, body)).status).toBe(401);
    const r3 = await post("/v1/chat/completions", other.secret, body);
    expect(r3.status).toBe(404);
    // The same answer as for an endpoint that does not exist: the key learns nothing.
    const r4 = await post("/v1/chat/completions", other.secret, { ...body, model: "does-not-exist" });
    expect(((await r3.json()) as { error: { code: string } }).error.code).toBe(((await r4.json()) as { error: { code: string } }).error.code);
  });

  it("answers 413 for a body over the limit and 400 naming the field for malformed ones", async () => {
    const big = await post("/v1/chat/completions", tenant.secret, { model: chat.endpoint.slug, messages: [{ role: "user", content: "x".repeat(100_000) }] });
    expect(big.status).toBe(413);
    const notJson = await post("/v1/chat/completions", tenant.secret, "{not json");
    expect(notJson.status).toBe(400);
    const noMessages = await post("/v1/chat/completions", tenant.secret, { model: chat.endpoint.slug });
    expect(noMessages.status).toBe(400);
    expect(((await noMessages.json()) as { error: { param: string } }).error.param).toBe("messages");
    const badMax = await post("/v1/chat/completions", tenant.secret, { model: chat.endpoint.slug, messages: [{ role: "user", content: "x" }], max_tokens: -3 });
    expect(((await badMax.json()) as { error: { param: string } }).error.param).toBe("max_tokens");
  });

  it("serves KServe v2 infer on an endpoint's slug", async () => {
    const r = await post(`/v2/models/${embed.endpoint.slug}/infer`, tenant.secret, { inputs: [{ name: "INPUT0", datatype: "BYTES", shape: [1, 2], data: ["a", "b"] }] });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-kule-version")).toBe("1.0");
    const unknown = await post("/v2/models/nope/infer", tenant.secret, { inputs: [] });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toHaveProperty("error");
  });
});

describe("KVKK transfers abroad (Art. 9)", () => {
  it("serves every tenant in Turkey unless a safeguard covers it there, and an external server only once its region is verified", async () => {
    const [operator, admin] = [await makeActor("operator"), await makeActor("admin")];
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    // The version's only replica in Turkey stops; a server in Frankfurt is registered in its place.
    const backing = ep.replicas[0]!;
    const abroad = await caller(operator).cluster.registerExternal({ endpointVersionId: ep.versions[0]!.id, url: backing.url!, region: "de-fra" });
    await expect.poll(async () => (await testDb().replica.findUniqueOrThrow({ where: { id: abroad.id } })).state, { timeout: 20_000 }).toBe("ready");
    await testDb().replica.update({ where: { id: backing.id }, data: { state: "failed", reason: "test: taken out" } });
    const turkeyOnly = await tenantWithKey({ kvkk: true });
    const plain = await tenantWithKey();
    await gw.gateway.config.reload();
    const body = { model: ep.endpoint.slug, messages: [{ role: "user", content: "x" }], max_tokens: 1 };
    const status = async (secret: string) => {
      const r = await post("/v1/chat/completions", secret, body);
      return [r.status, r.headers.get("x-kule-replica-region"), r.status === 503 ? ((await r.json()) as { error: { message: string } }).error.message : null] as const;
    };

    // Unverified label: nobody is served there, whatever the label says.
    expect((await status(plain.secret))[0]).toBe(503);
    await caller(admin).kvkk.regions.verify({ replicaId: abroad.id, evidence: "Colocation contract 17, Frankfurt FR5" });
    await gw.gateway.config.reload();
    // Verified, but no safeguard: still kept in Turkey, with a message that says why.
    const [code, , message] = await status(plain.secret);
    expect(code).toBe(503);
    expect(message).toMatch(/Turkey.*safeguard.*KVKK Art\. 9/);

    const sg = await caller(admin).kvkk.safeguards.create({ tenantId: plain.tenant.id, destination: "de", importer: "Rechen GmbH, Frankfurt", mechanism: "standard_contract", reference: "SCC-17", signedAt: new Date(Date.now() - 86_400_000) });
    await gw.gateway.config.reload();
    expect((await status(plain.secret)).slice(0, 2)).toEqual([200, "de-fra"]);
    // A tenant whose contract keeps it in Turkey gets no safeguard and is never served abroad.
    await expect(caller(admin).kvkk.safeguards.create({ tenantId: turkeyOnly.tenant.id, destination: "de", importer: "Rechen GmbH", mechanism: "bcr", reference: "B", signedAt: new Date() })).rejects.toThrow(/Turkey/);
    expect((await status(turkeyOnly.secret))[0]).toBe(503);

    await caller(admin).kvkk.safeguards.revoke({ id: sg.id, expectedUpdatedAt: sg.updatedAt });
    await gw.gateway.config.reload();
    expect((await status(plain.secret))[0]).toBe(503);
    await gw.gateway.callLog.flush();
    const rows = await testDb().callLog.findMany({ where: { tenantId: plain.tenant.id }, orderBy: { startedAt: "asc" } });
    expect(rows.map((r) => [r.status, r.region, r.errorClass])).toEqual([
      [503, null, "no_replica_in_region"],
      [503, null, "no_replica_in_region"],
      [200, "de-fra", null],
      [503, null, "no_replica_in_region"],
    ]);
  });

  it("refuses an external server over plain HTTP to another host unless allowed explicitly", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const operator = await makeActor("operator");
    await expect(caller(operator).cluster.registerExternal({ endpointVersionId: ep.versions[0]!.id, url: "http://10.0.0.5:8000", region: "tr-ist" })).rejects.toThrow(/plain http/);
  });
});

describe("traffic split and the call log", () => {
  it("serves 10,000 requests at 95/5 within ±1 point of the weights, each logged once with its tokens", async () => {
    const ep = await servedEndpoint("cpu", [
      { weight: 95, device: { host: "cpu-1" } },
      { weight: 5, device: { host: "cpu-1" } },
    ]);
    const t = await tenantWithKey();
    await gw.gateway.config.reload();
    const counts = new Map<string, number>();
    const body = JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "hi" }], max_tokens: 1 });
    let next = 0;
    const worker = async () => {
      while (next < 10_000) {
        next++;
        const r = await post("/v1/chat/completions", t.secret, body);
        expect(r.status).toBe(200);
        await r.arrayBuffer();
        const v = r.headers.get("x-kule-version")!;
        counts.set(v, (counts.get(v) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(10_000);
    expect(Math.abs(((counts.get("1.0") ?? 0) / total) * 100 - 95)).toBeLessThanOrEqual(1);
    expect(Math.abs(((counts.get("2.0") ?? 0) / total) * 100 - 5)).toBeLessThanOrEqual(1);
    await gw.gateway.callLog.flush();
    const logged = await testDb().callLog.groupBy({ by: ["endpointVersionId"], where: { tenantId: t.tenant.id }, _count: true, _sum: { promptTokens: true, completionTokens: true } });
    expect(logged.reduce((s, g) => s + g._count, 0)).toBe(10_000);
    expect(logged.reduce((s, g) => s + (g._sum.promptTokens ?? 0), 0)).toBe(10_000);
    expect(logged.reduce((s, g) => s + (g._sum.completionTokens ?? 0), 0)).toBe(10_000);
  }, 120_000);

  it("applies a weight change made in the control plane within a second, without a reload call", async () => {
    const ep = await servedEndpoint("cpu", [
      { weight: 100, device: { host: "cpu-1" } },
      { weight: 0, device: { host: "cpu-1" } },
    ]);
    const t = await tenantWithKey();
    await gw.gateway.config.reload();
    const operator = await makeActor("operator");
    const current = await caller(operator).endpoint.get({ id: ep.endpoint.id });
    const saved = Date.now();
    await caller(operator).rollout.setWeights({
      endpointId: ep.endpoint.id,
      expectedRevision: current.revision,
      weights: [
        { endpointVersionId: ep.versions[0]!.id, weight: 0 },
        { endpointVersionId: ep.versions[1]!.id, weight: 100 },
      ],
    });
    const body = { model: ep.endpoint.slug, messages: [{ role: "user", content: "x" }], max_tokens: 1 };
    await expect.poll(async () => (await post("/v1/chat/completions", t.secret, body)).headers.get("x-kule-version"), { timeout: 5000, interval: 20 }).toBe("2.0");
    expect(Date.now() - saved).toBeLessThan(1000);
  });
});
