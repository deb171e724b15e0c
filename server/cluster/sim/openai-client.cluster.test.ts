import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { SimCluster } from "./cluster.ts";
import { smallTopology, LLAMA_8B } from "./fixtures.ts";
import { countTokens } from "./tokens.ts";

let cluster: SimCluster;
let client: OpenAI;

beforeAll(async () => {
  cluster = new SimCluster(smallTopology(), { storageBandwidth: 1e12, latencyScale: 0.2 });
  await cluster.startReplica({
    id: "r-chat",
    endpointSlug: "chat",
    servedModelName: "llama-3.1-8b-instruct",
    versionId: "v1",
    versionLabel: "1.0",
    task: "llm",
    ...LLAMA_8B,
    device: { kind: "gpu", gpuUuid: "GPU-llm-1-0" },
  });
  const ready = await cluster.awaitReady("r-chat", 10_000);
  client = new OpenAI({ baseURL: `${ready.url}/v1`, apiKey: "unused-by-the-simulator", maxRetries: 0 });
});
afterAll(() => cluster.shutdown());

describe("the official openai client against a simulated vLLM replica", () => {
  it("lists the served model", async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["llama-3.1-8b-instruct"]);
  });

  it("completes a chat, with usage that counts the text it returned", async () => {
    const prompt = "Merhaba, dünya! How many GPUs does the cluster have?";
    const r = await client.chat.completions.create({ model: "chat", messages: [{ role: "user", content: prompt }], max_tokens: 40 });
    const text = r.choices[0]!.message.content!;
    expect(text.length).toBeGreaterThan(0);
    expect(r.usage).toEqual({ prompt_tokens: countTokens(prompt), completion_tokens: countTokens(text), total_tokens: countTokens(prompt) + countTokens(text) });
    expect(r.usage!.completion_tokens).toBeLessThanOrEqual(40);
    expect(["stop", "length"]).toContain(r.choices[0]!.finish_reason);
  });

  it("streams chunks before the answer is complete, ending with usage when asked", async () => {
    const stream = await client.chat.completions.create({
      model: "chat",
      messages: [{ role: "user", content: "Write a long answer about KV caches." }],
      max_tokens: 60,
      stream: true,
      stream_options: { include_usage: true },
    });
    const arrivals: number[] = [];
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      arrivals.push(performance.now());
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(arrivals.length).toBeGreaterThan(10);
    // Tokens arrive spread out in time (per-token latency), not all at the end.
    expect(arrivals.at(-1)! - arrivals[1]!).toBeGreaterThan(20);
    expect(usage?.completion_tokens).toBe(countTokens(text));
  });

  it("completes a prompt on the legacy completions API", async () => {
    const r = await client.completions.create({ model: "chat", prompt: "Once upon a time", max_tokens: 8 });
    expect(r.usage?.prompt_tokens).toBe(4);
    expect(r.usage?.completion_tokens).toBe(countTokens(r.choices[0]!.text));
  });

  it("answers an unknown model with the client's typed 404", async () => {
    await expect(client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("answers a malformed request with the client's typed 400", async () => {
    await expect(client.chat.completions.create({ model: "chat", messages: [] })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });
});
