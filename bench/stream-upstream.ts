/**
 * A streaming upstream for the gateway bench's `stream` figures: an OpenAI chat endpoint that
 * answers every call as vLLM streams one, one SSE event a token, and steps every sequence at once
 * on one clock (an engine step every STEP_MS, as continuous batching emits a token for the whole
 * batch), with the usage event last when asked and `data: [DONE]`. Prints {"url"} once listening.
 */
import http from "node:http";

const STEP_MS = 20; // 50 tokens/s a stream
const live = new Set<{ res: http.ServerResponse; left: number; prompt: number; total: number; usage: boolean }>();

const event = (body: object) => `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 0, model: "stream", ...body })}\n\n`;
const token = event({ choices: [{ index: 0, delta: { content: "kule " }, logprobs: null, finish_reason: null }] });

setInterval(() => {
  for (const s of live) {
    if (s.left-- > 0) {
      s.res.write(token);
      continue;
    }
    live.delete(s);
    let tail = event({ choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "length" }] });
    if (s.usage) tail += event({ choices: [], usage: { prompt_tokens: s.prompt, completion_tokens: s.total, total_tokens: s.prompt + s.total } });
    s.res.end(tail + "data: [DONE]\n\n");
  }
}, STEP_MS);

const server = http.createServer(async (req, res) => {
  // No /metrics here: the gateway's engine-load reader is told so, and asks again only now and then.
  if (req.method !== "POST") return void res.writeHead(404).end();
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { max_tokens?: number; stream_options?: { include_usage?: boolean } };
  const total = body.max_tokens ?? 256;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.write(event({ choices: [{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }] }));
  live.add({ res, left: total, prompt: 12, total, usage: !!body.stream_options?.include_usage });
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
process.on("SIGTERM", () => process.exit(0));
