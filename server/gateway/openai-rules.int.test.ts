import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";

let gw: Awaited<ReturnType<typeof startTestGateway>>;
let stopSync: () => void;
let chat: Awaited<ReturnType<typeof servedEndpoint>>;
let tenant: Awaited<ReturnType<typeof tenantWithKey>>;
const CONTEXT = 4096;

beforeAll(async () => {
  stopSync = startClusterSync(testDb(), testDrivers());
  chat = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
  await testDb().modelVersion.update({ where: { id: chat.versions[0]!.modelVersionId }, data: { contextTokens: CONTEXT } });
  tenant = await tenantWithKey();
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
  stopSync?.();
});

const user = [{ role: "user", content: "Merhaba" }];
/** Bad bodies, and the parameter, code and message OpenAI answers them with (a 400 each). */
const CASES: { name: string; body: Record<string, unknown>; param: string; code: string; message: RegExp }[] = [
  { name: "an unknown role", body: { messages: [{ role: "wizard", content: "x" }] }, param: "messages[0].role", code: "invalid_value", message: /Invalid value: 'wizard'\. Supported values are: 'system', 'developer', 'user', 'assistant', 'tool', and 'function'\./ },
  { name: "no messages", body: {}, param: "messages", code: "missing_required_parameter", message: /Missing required parameter: 'messages'/ },
  { name: "an empty messages array", body: { messages: [] }, param: "messages", code: "empty_array", message: /empty array/ },
  { name: "content that is a number", body: { messages: [{ role: "user", content: 5 }] }, param: "messages[0].content", code: "invalid_type", message: /expected a string or an array, but got an integer/ },
  { name: "a content part of an unknown type", body: { messages: [{ role: "user", content: [{ type: "hologram" }] }] }, param: "messages[0].content[0].type", code: "invalid_value", message: /'hologram'/ },
  { name: "a tool message without its call id", body: { messages: [{ role: "tool", content: "42" }] }, param: "messages[0].tool_call_id", code: "missing_required_parameter", message: /tool_call_id/ },
  { name: "max_tokens above the model's context", body: { messages: user, max_tokens: CONTEXT + 1 }, param: "max_tokens", code: "invalid_value", message: /max_tokens is too large: 4097\. This model's maximum context length is 4096 tokens/ },
  { name: "max_tokens below 1", body: { messages: user, max_tokens: 0 }, param: "max_tokens", code: "integer_below_min_value", message: /Expected a value >= 1, but got 0/ },
  { name: "n of 0", body: { messages: user, n: 0 }, param: "n", code: "integer_below_min_value", message: /Invalid 'n': integer below minimum value/ },
  { name: "n of 200", body: { messages: user, n: 200 }, param: "n", code: "integer_above_max_value", message: /Expected a value <= 128, but got 200/ },
  { name: "a temperature of 3", body: { messages: user, temperature: 3 }, param: "temperature", code: "integer_above_max_value", message: /<= 2, but got 3/ },
  { name: "a top_p of 1.5", body: { messages: user, top_p: 1.5 }, param: "top_p", code: "decimal_above_max_value", message: /<= 1, but got 1\.5/ },
  { name: "an unknown response_format type", body: { messages: user, response_format: { type: "xml" } }, param: "response_format.type", code: "invalid_value", message: /Supported values are: 'text', 'json_object', and 'json_schema'/ },
  { name: "json_schema without its schema", body: { messages: user, response_format: { type: "json_schema" } }, param: "response_format.json_schema", code: "missing_required_parameter", message: /json_schema/ },
  { name: "five stop sequences", body: { messages: user, stop: ["a", "b", "c", "d", "e"] }, param: "stop", code: "array_above_max_length", message: /maximum length 4/ },
  { name: "stream that is not a boolean", body: { messages: user, stream: "yes" }, param: "stream", code: "invalid_type", message: /expected a boolean, but got a string/ },
];

describe("OpenAI's rules at the door", () => {
  for (const c of CASES) {
    it(`answers ${c.name} with OpenAI's 400 naming ${c.param}`, async () => {
      const res = await fetch(`${gw.base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${tenant.secret}`, "content-type": "application/json" }, body: JSON.stringify({ model: chat.endpoint.slug, ...c.body }) });
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: { message: string; type: string; param: string; code: string } };
      expect(error).toMatchObject({ type: "invalid_request_error", param: c.param, code: c.code });
      expect(error.message).toMatch(c.message);
      // The official client raises its typed error carrying the same parameter.
      const client = new OpenAI({ baseURL: `${gw.base}/v1`, apiKey: tenant.secret, maxRetries: 0 });
      const thrown = await client.chat.completions.create({ model: chat.endpoint.slug, ...c.body } as never).then(
        () => null,
        (e: unknown) => e,
      );
      expect(thrown).toBeInstanceOf(OpenAI.BadRequestError);
      expect((thrown as InstanceType<typeof OpenAI.BadRequestError>).param).toBe(c.param);
    });
  }

  it("lets a valid body with vLLM's extra sampling parameters through", async () => {
    const client = new OpenAI({ baseURL: `${gw.base}/v1`, apiKey: tenant.secret, maxRetries: 0 });
    const r = await client.chat.completions.create({ model: chat.endpoint.slug, messages: [{ role: "system", content: "Kısa cevap ver." }, { role: "user", content: [{ type: "text", text: "Merhaba" }] }], max_tokens: 8, top_k: 40, response_format: { type: "text" } } as never);
    expect((r as { choices: unknown[] }).choices).toHaveLength(1);
  });

  it("checks legacy completions and embeddings too", async () => {
    const post = (path: string, body: unknown) => fetch(`${gw.base}${path}`, { method: "POST", headers: { authorization: `Bearer ${tenant.secret}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const noPrompt = await (await post("/v1/completions", { model: chat.endpoint.slug })).json();
    expect(noPrompt.error).toMatchObject({ param: "prompt", code: "missing_required_parameter" });
    const badFormat = await (await post("/v1/embeddings", { model: chat.endpoint.slug, input: "x", encoding_format: "hex" })).json();
    expect(badFormat.error).toMatchObject({ param: "encoding_format", code: "invalid_value" });
  });
});
