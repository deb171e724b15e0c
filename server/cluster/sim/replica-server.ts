import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import type { SimReplica } from "./replica.ts";
import { generatePieces, seedOf, countTokens } from "./tokens.ts";
import { answerLength, chatPromptTokens, embeddingOf, openAiError, promptText } from "./openai-shapes.ts";

const MAX_BODY = 8 * 1024 * 1024;

function send(res: http.ServerResponse, status: number, body: unknown) {
  const data = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(data) });
  res.end(data);
}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new Error("body too large"));
      else chunks.push(c);
    });
    req.on("end", () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {});
      } catch {
        reject(new Error("invalid JSON"));
      }
    });
    req.on("error", reject);
  });
}

/**
 * One replica's HTTP server: the OpenAI-compatible API a vLLM server offers, the KServe v2
 * inference protocol Triton offers, and /metrics. It listens from the moment the replica starts
 * loading and answers 503 until the replica is ready.
 */
export function startReplicaServer(replica: SimReplica, at = { host: "127.0.0.1", port: 0 }): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    void handle(replica, req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 400, openAiError(400, e instanceof Error ? e.message : "bad request", "BadRequestError").body);
      else res.end();
    });
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(at.port, at.host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

/** A server answering only GET /metrics: Triton's metrics port. */
export function startMetricsServer(text: () => Promise<string>): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") return void res.writeHead(404).end();
    void text().then(
      (t) => {
        res.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
        res.end(t);
      },
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

export function serverPort(server: http.Server): number {
  return (server.address() as AddressInfo).port;
}

async function handle(r: SimReplica, req: http.IncomingMessage, res: http.ServerResponse) {
  const url = req.url ?? "/";
  const path = url.split("?")[0]!;
  const metrics = req.method === "GET" && path === "/metrics" ? r.metricsText() : null;
  if (metrics) {
    const text = await metrics;
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
    return res.end(text);
  }
  if (req.method === "GET" && (path === "/health" || path === "/v2/health/ready")) {
    return send(res, r.acceptsWork() ? 200 : 503, r.acceptsWork() ? {} : { error: `replica is ${r.state}` });
  }
  if (req.method === "GET" && path === "/v2/health/live") return send(res, 200, {});

  // Every inference route below needs a ready replica, as a real server does.
  if (!r.acceptsWork()) {
    const e = openAiError(503, r.state === "draining" ? "Replica is draining and takes no new requests." : `Replica is ${r.state}.`, "ServiceUnavailableError");
    return send(res, e.status, e.body);
  }

  if (req.method === "GET" && path === "/v1/models") {
    return send(res, 200, { object: "list", data: [{ id: r.spec.servedModelName, object: "model", created: Math.floor(r.startedAt / 1000), owned_by: "kule-sim", root: r.spec.servedModelName, max_model_len: 8192 }] });
  }
  if (req.method === "POST" && path === "/v1/chat/completions") return chat(r, res, await readJson(req));
  if (req.method === "POST" && path === "/v1/completions") return completion(r, res, await readJson(req));
  if (req.method === "POST" && path === "/v1/embeddings") return embeddings(r, res, await readJson(req));

  const v2 = /^\/v2\/models\/([^/]+)(?:\/versions\/[^/]+)?(\/ready|\/infer)?$/.exec(path);
  if (v2) {
    const name = decodeURIComponent(v2[1]!);
    if (!r.answersTo(name)) return send(res, 404, { error: `Request for unknown model: '${name}' is not found` });
    if (req.method === "GET" && !v2[2]) return send(res, 200, modelMetadata(r, name));
    if (req.method === "GET" && v2[2] === "/ready") return send(res, 200, {});
    if (req.method === "POST" && v2[2] === "/infer") {
      const answer = await inferAnswer(r, name, await readJson(req));
      if (answer) send(res, answer.status, answer.body);
      return;
    }
  }
  return send(res, 404, { error: { message: `No route for ${req.method} ${path}`, type: "NotFoundError" } });
}

function modelCheck(r: SimReplica, res: http.ServerResponse, body: Record<string, unknown>): boolean {
  const e =
    typeof body.model !== "string" || !r.answersTo(body.model)
      ? openAiError(404, `The model \`${String(body.model)}\` does not exist.`, "NotFoundError", "model")
      : // vLLM's own check of the field (its protocol's request validators).
        body.cache_salt != null && (typeof body.cache_salt !== "string" || !body.cache_salt)
        ? openAiError(400, "Parameter 'cache_salt' must be a non-empty string if provided.", "BadRequestError", "cache_salt")
        : null;
  if (e) send(res, e.status, e.body);
  return !e;
}

function maxTokensOf(body: Record<string, unknown>): number | string {
  const v = body.max_completion_tokens ?? body.max_tokens ?? 128;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > 8192) return "max_tokens must be an integer from 1 to 8192";
  return v;
}

/** Fault injection: a version made to fail a share of requests answers 500 like a crashed engine step. */
function injectedFailure(r: SimReplica, res: http.ServerResponse): boolean {
  if (r.errorShare() > 0 && Math.random() < r.errorShare()) {
    r.recordFailure();
    send(res, 500, openAiError(500, "Internal server error (injected fault).", "InternalServerError").body);
    return true;
  }
  return false;
}

/** How one OpenAI route shapes its answer: a streamed event per token, and the whole answer at once. */
interface AnswerShape {
  idPrefix: string;
  object: string;
  streamObject: string;
  /** Events sent before the first token (chat announces the assistant's role). */
  opening: () => object[];
  tokenChoice: (piece: string) => object;
  finalChoice: (finish: string) => object;
  wholeChoice: (text: string, finish: string) => object;
}

const CHAT: AnswerShape = {
  idPrefix: "chatcmpl",
  object: "chat.completion",
  streamObject: "chat.completion.chunk",
  opening: () => [{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }],
  tokenChoice: (piece) => ({ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }),
  finalChoice: (finish) => ({ index: 0, delta: {}, logprobs: null, finish_reason: finish }),
  wholeChoice: (text, finish) => ({ index: 0, message: { role: "assistant", content: text }, logprobs: null, finish_reason: finish }),
};

const COMPLETION: AnswerShape = {
  idPrefix: "cmpl",
  object: "text_completion",
  streamObject: "text_completion",
  opening: () => [],
  tokenChoice: (piece) => ({ index: 0, text: piece, logprobs: null, finish_reason: null }),
  finalChoice: (finish) => ({ index: 0, text: "", logprobs: null, finish_reason: finish }),
  wholeChoice: (text, finish) => ({ index: 0, text, logprobs: null, finish_reason: finish }),
};

/**
 * Generates an answer through the replica's engine and writes it the way the route's shape says:
 * as server-sent events as tokens come (ending in `data: [DONE]`, with a usage event when asked),
 * or as one JSON answer. A client that goes away cancels the generation.
 */
async function answer(r: SimReplica, res: http.ServerResponse, body: Record<string, unknown>, shape: AnswerShape, promptTokens: number, seedText: string, max: number) {
  if (injectedFailure(r, res)) return;
  // The prompt's leading blocks an earlier request already computed (vLLM's prefix caching).
  const { cachedTokens: hit, blocks } = r.prefixCache.lookup(seedText, typeof body.cache_salt === "string" ? body.cache_salt : undefined);
  const cachedTokens = Math.min(promptTokens, hit);
  const seed = seedOf(seedText);
  const { tokens, finish } = answerLength(seed, max);
  const pieces = generatePieces(tokens, seed);
  const id = `${shape.idPrefix}-${randomUUID().replace(/-/g, "")}`;
  const created = Math.floor(Date.now() / 1000);
  const model = body.model as string;
  const usage = { prompt_tokens: promptTokens, completion_tokens: tokens, total_tokens: promptTokens + tokens };
  const abort = new AbortController();
  res.on("close", () => abort.abort());

  if (body.stream === true) {
    const event = (choices: object[], extra: object = {}) => `data: ${JSON.stringify({ id, object: shape.streamObject, created, model, choices, ...extra })}\n\n`;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    for (const c of shape.opening()) res.write(event([c]));
    const result = await r.run({ promptTokens, blocks, maxTokens: tokens, signal: abort.signal, onToken: (i) => res.write(event([shape.tokenChoice(pieces[i]!)])) }, { cachedTokens, finish, requestedMaxTokens: max });
    if (result.aborted) return;
    res.write(event([shape.finalChoice(finish)]));
    if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true) res.write(event([], { usage }));
    res.end("data: [DONE]\n\n");
    return;
  }
  const result = await r.run({ promptTokens, blocks, maxTokens: tokens, signal: abort.signal }, { cachedTokens, finish, requestedMaxTokens: max });
  if (result.aborted) return;
  send(res, 200, { id, object: shape.object, created, model, choices: [shape.wholeChoice(pieces.join(""), finish)], usage });
}

async function chat(r: SimReplica, res: http.ServerResponse, raw: unknown) {
  const body = (raw ?? {}) as Record<string, unknown>;
  if (!modelCheck(r, res, body)) return;
  const promptTokens = chatPromptTokens(body.messages);
  if (promptTokens === null) return send(res, 400, openAiError(400, "messages must be a non-empty array of {role, content}", "BadRequestError", "messages").body);
  const max = maxTokensOf(body);
  if (typeof max === "string") return send(res, 400, openAiError(400, max, "BadRequestError", "max_tokens").body);
  await answer(r, res, body, CHAT, promptTokens, JSON.stringify(body.messages), max);
}

async function completion(r: SimReplica, res: http.ServerResponse, raw: unknown) {
  const body = (raw ?? {}) as Record<string, unknown>;
  if (!modelCheck(r, res, body)) return;
  const text = promptText(body.prompt);
  if (text === null) return send(res, 400, openAiError(400, "prompt must be a string or an array of strings", "BadRequestError", "prompt").body);
  const max = maxTokensOf(body);
  if (typeof max === "string") return send(res, 400, openAiError(400, max, "BadRequestError", "max_tokens").body);
  await answer(r, res, body, COMPLETION, countTokens(text), text, max);
}

async function embeddings(r: SimReplica, res: http.ServerResponse, raw: unknown) {
  const body = (raw ?? {}) as Record<string, unknown>;
  if (!modelCheck(r, res, body)) return;
  const inputs = typeof body.input === "string" ? [body.input] : Array.isArray(body.input) && body.input.every((x) => typeof x === "string") ? (body.input as string[]) : null;
  if (!inputs || inputs.length === 0) return send(res, 400, openAiError(400, "input must be a string or a non-empty array of strings", "BadRequestError", "input").body);
  if (injectedFailure(r, res)) return;
  const promptTokens = inputs.reduce((s, t) => s + countTokens(t), 0);
  const result = await r.run({ promptTokens, maxTokens: 1 });
  if (result.aborted) return;
  const seed = seedOf(r.spec.versionId);
  // The official clients ask for base64 (packed little-endian float32) by default, as vLLM allows.
  const base64 = body.encoding_format === "base64";
  const encode = (v: number[]) => (base64 ? Buffer.from(new Float32Array(v).buffer).toString("base64") : v);
  send(res, 200, {
    object: "list",
    data: inputs.map((t, index) => ({ object: "embedding", index, embedding: encode(embeddingOf(t, 1024, seed ^ seedOf(t))) })),
    model: body.model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  });
}

/** KServe v2 model metadata, as Triton tells it (over HTTP and gRPC alike). */
export function modelMetadata(r: SimReplica, name: string) {
  return {
    name,
    versions: [r.spec.versionLabel],
    platform: r.spec.task === "llm" ? "vllm" : "onnxruntime_onnx",
    inputs: [{ name: "INPUT0", datatype: r.spec.task === "vision" ? "UINT8" : "BYTES", shape: [-1, -1] }],
    outputs: [{ name: "OUTPUT0", datatype: "FP32", shape: [-1, -1] }],
  };
}

const reply = (status: number, body: unknown) => ({ status, body });

/**
 * KServe v2 inference (over HTTP and gRPC alike): validates the tensors' shape and answers
 * detections (vision) or scores, as the status and JSON body to send; null when the call was
 * cancelled.
 */
export async function inferAnswer(r: SimReplica, name: string, raw: unknown): Promise<{ status: number; body: unknown } | null> {
  const body = (raw ?? {}) as { id?: string; inputs?: { name?: string; shape?: number[]; datatype?: string; data?: unknown[] }[] };
  const input = Array.isArray(body.inputs) ? body.inputs[0] : undefined;
  if (!input || !Array.isArray(input.shape) || !input.shape.every((d) => Number.isInteger(d) && d > 0) || typeof input.datatype !== "string" || !Array.isArray(input.data)) {
    return reply(400, { error: "inputs[0] must have a name, a positive integer shape, a datatype and data" });
  }
  const elements = input.shape.reduce((a, b) => a * b, 1);
  // The protocol allows data flat or nested (row-major), as Triton does.
  if (input.data.flat(Infinity).length !== elements) return reply(400, { error: `inputs[0] has ${input.data.flat(Infinity).length} elements but its shape [${input.shape.join(",")}] needs ${elements}` });
  if (r.errorShare() > 0 && Math.random() < r.errorShare()) {
    r.recordFailure();
    return reply(500, { error: "Internal server error (injected fault)." });
  }
  const result = await r.run({ promptTokens: Math.min(4096, Math.ceil(elements / 256)), maxTokens: 1 });
  if (result.aborted) return null;
  const seed = (seedOf(`${elements}`) ^ seedOf(r.spec.versionId)) >>> 0;
  const detections = 1 + (seed % 5);
  const data: number[] = [];
  // Per detection: class id (0–79, unsigned shifts so never negative), score, box.
  for (let i = 0; i < detections; i++) data.push((seed >>> i) % 80, 0.5 + ((seed >>> (i + 3)) % 50) / 100, 10 * i, 12 * i, 10 * i + 64, 12 * i + 48);
  return reply(200, {
    model_name: name,
    model_version: r.spec.versionLabel,
    id: body.id ?? randomUUID(),
    outputs: [{ name: "OUTPUT0", datatype: "FP32", shape: [detections, 6], data }],
  });
}
