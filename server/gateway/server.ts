import http from "node:http";
import { createHash, randomUUID } from "node:crypto";
import { Pool as UpstreamPool } from "undici";
import type pg from "pg";
import { ConfigStore, type EndpointConfig, type GatewayConfig, type KeyConfig, type ReplicaConfig, type TenantConfig, type VersionConfig } from "./config.ts";
import { chooseVersion, nextWeighted, pickReplica, stickyPoint, usableReplicas } from "./routing.ts";
import { MemoryLimiter, type Limiter, type Take } from "./limits.ts";
import type { CallLogRow } from "./call-log.ts";
import { CallLogThread } from "./call-log-thread.ts";
import { gatewayMetrics } from "./metrics.ts";
import { kserveError, openAiError } from "./errors.ts";
import { UpstreamCall } from "./upstream-call.ts";
import { hashSubject, subjectHashKey } from "../calllog/subject-hash.ts";

export interface GatewayOptions {
  pool: pg.Pool;
  databaseUrl: string;
  spoolDir: string;
  maxBodyBytes: number;
  limiter?: Limiter;
  /** Consecutive failures after which a replica is taken out, and for how long. */
  cooldown?: { failures: number; ms: number };
  /** Key of the HMAC over the `user` field; defaults to the machine's (server/calllog/subject-hash.ts). */
  subjectHashKey?: string;
  /** What /metrics serves; a worker of a multi-process gateway serves every worker's sum (workers.ts). */
  metricsText?: () => Promise<string>;
}

type Api = "openai" | "kserve";
type Kind = "chat" | "completions" | "embeddings" | "infer";

const OPENAI_ROUTES: Record<string, Kind> = { "/v1/chat/completions": "chat", "/v1/completions": "completions", "/v1/embeddings": "embeddings" };

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

interface Ctx {
  requestId: string;
  started: number;
  api: Api;
  key: KeyConfig | null;
  tenant: TenantConfig | null;
  endpoint: EndpointConfig | null;
  version: VersionConfig | null;
  replica: ReplicaConfig | null;
  ttftMs: number | null;
  status: number;
  errorClass: string | null;
  promptTokens: number;
  completionTokens: number;
  clientIp: string | null;
  userHash: string | null;
}

/**
 * The inference gateway: authenticates tenant keys, enforces limits and KVKK residency, splits
 * traffic by the endpoint's weights, proxies to replicas over pooled keep-alive connections
 * (streams pass through as they arrive), and logs one row per request.
 */
export class Gateway {
  readonly config: ConfigStore;
  readonly callLog: CallLogThread;
  private readonly limiter: NonNullable<GatewayOptions["limiter"]>;
  private readonly upstreams = new Map<string, UpstreamPool>();
  private readonly outstanding = new Map<string, number>();
  private readonly failures = new Map<string, { count: number; until: number }>();
  private readonly lastUsed = new Map<string, number>();
  private lastUsedTimer: NodeJS.Timeout;
  private inFlight = 0;
  readonly metrics: ReturnType<typeof gatewayMetrics>;
  private server: http.Server | null = null;
  private readonly subjectKey: string;

  constructor(private readonly opts: GatewayOptions) {
    this.config = new ConfigStore(opts.pool, opts.databaseUrl);
    this.callLog = new CallLogThread({ databaseUrl: opts.databaseUrl, spoolDir: opts.spoolDir, connectTimeoutMs: opts.pool.options.connectionTimeoutMillis || 1000 });
    this.limiter = opts.limiter ?? new MemoryLimiter();
    this.subjectKey = opts.subjectHashKey ?? subjectHashKey();
    this.metrics = gatewayMetrics({ inFlight: () => this.inFlight, spoolDepth: () => this.callLog.spooledRows, configAge: () => this.config.ageSeconds });
    // `last used at` is kept in memory and written once every 30 s, not once per request.
    this.lastUsedTimer = setInterval(() => void this.flushLastUsed(), 30_000);
    this.lastUsedTimer.unref();
  }

  async listen(port: number, host = "127.0.0.1"): Promise<string> {
    await this.config.start();
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 65_000;
    await new Promise<void>((r) => this.server!.listen(port, host, () => r()));
    const a = this.server.address() as { port: number };
    return `http://${host}:${a.port}`;
  }

  async close() {
    clearInterval(this.lastUsedTimer);
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server?.closeAllConnections();
    await this.callLog.close();
    await this.flushLastUsed();
    await this.config.close();
    await Promise.all([...this.upstreams.values()].map((p) => p.close()));
  }

  private get cfg(): GatewayConfig {
    if (!this.config.current) throw new HttpError(503, "The gateway has no configuration yet.");
    return this.config.current;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const path = (req.url ?? "/").split("?")[0]!;
    if (req.method === "GET" && path === "/healthz") return void res.end("ok");
    if (req.method === "GET" && path === "/sd") {
      // Prometheus http_sd: the gateway announces itself, so every gateway started is scraped.
      const a = this.server!.address() as { address: string; port: number };
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify([{ targets: [`${a.address}:${a.port}`], labels: { job: "kule-gateway" } }]));
    }
    if (req.method === "GET" && path === "/metrics") {
      try {
        const text = await (this.opts.metricsText ?? (() => this.metrics.registry.metrics()))();
        res.writeHead(200, { "content-type": this.metrics.registry.contentType });
        return void res.end(text);
      } catch (e) {
        res.writeHead(503, { "content-type": "text/plain" });
        return void res.end(`Metrics are unavailable: ${(e as Error).message}\n`);
      }
    }
    if (req.method === "GET" && path === "/v2/health/ready") {
      res.writeHead(this.config.current ? 200 : 503);
      return void res.end();
    }
    const kind = req.method === "POST" ? OPENAI_ROUTES[path] : undefined;
    const infer = req.method === "POST" ? /^\/v2\/models\/([^/]+)(?:\/versions\/[^/]+)?\/infer$/.exec(path) : null;
    const api: Api = infer ? "kserve" : "openai";
    const ctx: Ctx = {
      requestId: randomUUID(),
      started: Date.now(),
      api,
      key: null,
      tenant: null,
      endpoint: null,
      version: null,
      replica: null,
      ttftMs: null,
      status: 0,
      errorClass: null,
      promptTokens: 0,
      completionTokens: 0,
      clientIp: (req.headers["x-forwarded-for"] as string | undefined)?.split(",")[0]?.trim() ?? req.socket.remoteAddress ?? null,
      userHash: null,
    };
    this.inFlight++;
    try {
      if (req.method === "GET" && path === "/v1/models") return this.listModels(req, res, ctx);
      if (!kind && !infer) throw new HttpError(404, `No route for ${req.method} ${path}. Kule serves /v1/chat/completions, /v1/completions, /v1/embeddings, /v1/models and /v2/models/{endpoint}/infer.`);
      this.authenticate(req, ctx);
      const raw = await readBody(req, this.opts.maxBodyBytes);
      const body = parseJson(raw);
      if (typeof body.user === "string" && body.user) ctx.userHash = hashSubject(body.user, this.subjectKey);
      const slug = infer ? decodeURIComponent(infer[1]!) : modelOf(body);
      ctx.endpoint = this.endpointFor(ctx, slug);
      if (kind) validate(kind, body);
      await this.checkLimits(ctx);
      await this.proxy(req, res, ctx, kind ?? "infer", body, raw, path);
    } catch (e) {
      const err = e instanceof HttpError ? e : new HttpError(500, "The gateway failed to handle this request.");
      if (!(e instanceof HttpError)) console.error("[gateway]", e);
      ctx.status = err.status;
      ctx.errorClass ??= errorClassOf(err.status);
      if (!res.headersSent) {
        // The served path writes its headers in one list (proxy()); an error sets them here.
        res.setHeader("x-kule-request-id", ctx.requestId);
        if (ctx.version) {
          res.setHeader("x-kule-version", ctx.version.label);
          res.setHeader("x-kule-endpoint-revision", String(ctx.endpoint!.revision));
        }
        if (api === "kserve") kserveError(res, err.status, err.message, err.headers);
        else openAiError(res, err.status, err.message, { param: err.param, code: err.code, headers: err.headers });
      } else res.end();
    } finally {
      this.inFlight--;
      this.finish(ctx);
    }
  }

  private authenticate(req: http.IncomingMessage, ctx: Ctx) {
    const auth = req.headers.authorization ?? "";
    const secret = auth.startsWith("Bearer ") ? auth.slice(7).trim() : "";
    if (!secret) throw new HttpError(401, "Missing API key: send it as 'Authorization: Bearer <key>'.", null, "invalid_api_key");
    const key = this.cfg.keysByHash.get(createHash("sha256").update(secret).digest("hex"));
    if (!key) throw new HttpError(401, "Incorrect API key provided.", null, "invalid_api_key");
    if (key.revoked) throw new HttpError(401, "This API key has been revoked.", null, "invalid_api_key");
    if (key.expiresAt !== null && key.expiresAt <= Date.now()) throw new HttpError(401, "This API key has expired.", null, "invalid_api_key");
    const tenant = this.cfg.tenants.get(key.tenantId);
    if (!tenant?.active) throw new HttpError(401, "This API key's tenant is suspended.", null, "invalid_api_key");
    ctx.key = key;
    ctx.tenant = tenant;
    this.lastUsed.set(key.id, Date.now());
  }

  /** A key not allowed on an endpoint gets the same 404 as an endpoint that does not exist. */
  private endpointFor(ctx: Ctx, slug: string): EndpointConfig {
    const e = this.cfg.endpointsBySlug.get(slug);
    if (!e || (ctx.key!.allowedEndpointIds && !ctx.key!.allowedEndpointIds.has(e.id))) {
      throw new HttpError(404, `The model \`${slug}\` does not exist or you do not have access to it.`, "model", "model_not_found");
    }
    return e;
  }

  private listModels(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx) {
    this.authenticate(req, ctx);
    const data = [...this.cfg.endpointsBySlug.values()]
      .filter((e) => !ctx.key!.allowedEndpointIds || ctx.key!.allowedEndpointIds.has(e.id))
      .map((e) => ({ id: e.slug, object: "model", created: 0, owned_by: "kule" }));
    const body = JSON.stringify({ object: "list", data });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "x-kule-request-id": ctx.requestId });
    res.end(body);
    ctx.status = 200;
  }

  /** The tenant's and the key's buckets of one kind, each with what a request takes from it now. */
  private limitBuckets(ctx: Ctx, which: "rpm" | "tpm", cost = 0): Take[] {
    const out: Take[] = [];
    const t = ctx.tenant!;
    const k = ctx.key!;
    const tl = which === "rpm" ? t.rpmLimit : t.tpmLimit;
    const kl = which === "rpm" ? k.rpmLimit : k.tpmLimit;
    if (tl) out.push({ key: `${which}:t:${t.id}`, capacity: tl, cost });
    if (kl) out.push({ key: `${which}:k:${k.id}`, capacity: kl, cost });
    return out;
  }

  private async checkLimits(ctx: Ctx) {
    if (ctx.tenant!.budgetBlocked) {
      const now = new Date();
      const monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
      throw new HttpError(429, `This tenant has spent its monthly budget of ${ctx.tenant!.budgetBlocked} and its hard cap is on: calls are refused until the budget is raised or the month ends.`, null, "budget_exceeded", {
        "retry-after": String(Math.ceil((monthEnd - now.getTime()) / 1000)),
      });
    }
    // A request takes one from each requests bucket; a tokens bucket only has to be out of debt
    // (the answer's tokens are charged after it). All in one check: a request refused for tokens
    // takes nothing from the requests buckets, and Redis is asked once.
    const takes = [...this.limitBuckets(ctx, "rpm", 1), ...this.limitBuckets(ctx, "tpm", 0)];
    if (!takes.length) return;
    const { wait, bucket } = await this.limiter.take(takes);
    if (wait > 0) {
      const which = bucket?.startsWith("tpm:") ? "tokens" : "requests";
      const whose = bucket?.includes(":t:") ? "tenant" : "API key";
      throw new HttpError(429, `Rate limit reached for ${which} per minute on this ${whose}. Retry after ${Math.ceil(wait)} s.`, null, "rate_limit_exceeded", {
        "retry-after": String(Math.ceil(wait)),
      });
    }
  }

  private upstream(url: string): UpstreamPool {
    let p = this.upstreams.get(url);
    if (!p) {
      p = new UpstreamPool(url, { connections: 64, pipelining: 1, keepAliveTimeout: 60_000, connectTimeout: 2000 });
      this.upstreams.set(url, p);
    }
    return p;
  }

  private coolingDown = (id: string) => (this.failures.get(id)?.until ?? 0) > Date.now();
  private recordFailure(id: string) {
    const cd = this.opts.cooldown ?? { failures: 3, ms: 10_000 };
    const f = this.failures.get(id) ?? { count: 0, until: 0 };
    f.count++;
    if (f.count >= cd.failures) {
      f.until = Date.now() + cd.ms;
      f.count = 0;
    }
    this.failures.set(id, f);
  }

  /** Picks a version by weight and a replica by least outstanding requests; retries once elsewhere on a connect failure or 503. */
  private async proxy(req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx, kind: Kind, body: Record<string, unknown>, raw: Buffer, path: string) {
    const e = ctx.endpoint!;
    const kvkk = ctx.tenant!.kvkk;
    const sticky = e.sticky ? ((typeof body.user === "string" && body.user) || (req.headers["x-kule-session"] as string | undefined)) : undefined;
    const usable = (v: VersionConfig) => usableReplicas(v, kvkk, e).some((r) => !this.coolingDown(r.id));
    const version = sticky ? chooseVersion(e.versions, stickyPoint(sticky), usable) : nextWeighted(e.versions, usable);
    if (!version) {
      const anyReady = e.versions.some((v) => v.weight > 0 && v.replicas.length > 0);
      ctx.errorClass = kvkk && anyReady ? "no_replica_in_region" : "no_ready_replica";
      throw new HttpError(
        503,
        kvkk && anyReady
          ? `No replica of ${e.slug} is ready in Turkey (tr-*), and this tenant's calls must stay in Turkey under KVKK, so Kule will not send them abroad. Try again shortly.`
          : `No replica of ${e.slug} is ready to serve right now. Try again shortly.`,
      );
    }
    ctx.version = version;

    // Streams always ask the upstream for usage (the call log needs tokens); if the client did not ask, the usage event is dropped on the way out.
    const stream = kind !== "infer" && body.stream === true;
    const clientWantsUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    // Otherwise the client's bytes go upstream untouched (no re-serialising on the hot path).
    const upstreamBody = stream && !clientWantsUsage ? JSON.stringify({ ...body, stream_options: { ...(body.stream_options as object), include_usage: true } }) : raw;

    let call: UpstreamCall | null = null;
    let clientGone = false;
    const gone = () => new Error("The client closed the connection.");
    res.on("close", () => {
      if (res.writableFinished) return;
      clientGone = true;
      call?.abort(gone());
    });
    const tried = new Set<string>();
    for (let attempt = 0; attempt < 2; attempt++) {
      const replica = pickReplica(usableReplicas(version, kvkk, e), (id) => this.outstanding.get(id) ?? 0, (id) => tried.has(id) || this.coolingDown(id));
      if (!replica) break;
      tried.add(replica.id);
      ctx.replica = replica;
      this.outstanding.set(replica.id, (this.outstanding.get(replica.id) ?? 0) + 1);
      call = new UpstreamCall();
      try {
        if (clientGone) throw gone(); // left while the last attempt failed: the catch logs 499
        this.upstream(replica.url).dispatch({ path, method: "POST", headers: ["content-type", "application/json", "x-kule-request-id", ctx.requestId], body: upstreamBody }, call);
        await call.started;
        if (call.status === 503 && attempt === 0) {
          await call.body();
          this.recordFailure(replica.id);
          continue; // nothing reached the client yet: try another replica
        }
        if (call.status >= 500) this.recordFailure(replica.id);
        else this.failures.delete(replica.id);
        ctx.status = call.status;
        if (call.status >= 400) ctx.errorClass = call.status >= 500 ? "upstream_error" : "upstream_rejected";
        const contentType = String(call.headers["content-type"] ?? "application/json");
        // One header list, written once: no setHeader() before it, so Node takes writeHead's fast path.
        const headers = ["content-type", contentType, "x-kule-request-id", ctx.requestId, "x-kule-version", version.label, "x-kule-endpoint-revision", String(e.revision), "x-kule-replica-region", replica.region];
        if (stream && call.status === 200) {
          res.writeHead(call.status, headers);
          await this.pipeStream(call, res, ctx, clientWantsUsage);
        } else {
          const buf = await call.body();
          headers.push("content-length", String(buf.length));
          res.writeHead(call.status, headers);
          res.end(buf);
          if (call.status === 200 && kind !== "infer") readUsage(buf.toString("utf8"), ctx);
        }
        return;
      } catch (err) {
        if (clientGone) {
          ctx.status = 499;
          ctx.errorClass = "client_closed";
          return;
        }
        this.recordFailure(replica.id);
        if (res.headersSent) {
          ctx.status = 502;
          ctx.errorClass = "upstream_broken";
          res.end();
          return;
        }
        if (attempt === 1) throw new HttpError(502, `The replica serving ${e.slug} failed: ${(err as Error).message}`);
      } finally {
        this.outstanding.set(replica.id, (this.outstanding.get(replica.id) ?? 1) - 1);
      }
    }
    ctx.errorClass = "no_ready_replica";
    throw new HttpError(503, `No replica of ${e.slug} could take the request. Try again shortly.`);
  }

  /**
   * SSE passes through chunk by chunk as it arrives (the upstream paused while the client is slow
   * to take it); only the usage event the client did not ask for is held back.
   */
  private async pipeStream(call: UpstreamCall, res: http.ServerResponse, ctx: Ctx, clientWantsUsage: boolean) {
    let carry = "";
    const onDrain = () => call.resume();
    res.on("drain", onDrain);
    try {
      await call.pipe((chunk) => {
        // TTFT: until the first content delta reaches the gateway (the role-only first event carries no token).
        if (ctx.ttftMs === null && FIRST_TOKEN.test(chunk.toString("utf8"))) ctx.ttftMs = Date.now() - ctx.started;
        if (clientWantsUsage) {
          if (chunk.includes('"usage"')) readSseUsage(chunk.toString("utf8"), ctx);
          return res.write(chunk);
        }
        carry += chunk.toString("utf8");
        let cut: number;
        let out = "";
        while ((cut = carry.indexOf("\n\n")) >= 0) {
          const event = carry.slice(0, cut + 2);
          carry = carry.slice(cut + 2);
          if (event.includes('"usage"') && event.includes('"choices":[]')) readSseUsage(event, ctx);
          else out += event;
        }
        return out ? res.write(out) : true;
      });
    } finally {
      res.off("drain", onDrain);
    }
    res.end(carry);
  }

  private finish(ctx: Ctx) {
    const durationS = (Date.now() - ctx.started) / 1000;
    if (ctx.tenant && ctx.key && ctx.status) {
      const row: CallLogRow = {
        requestId: ctx.requestId,
        tenantId: ctx.tenant.id,
        apiKeyId: ctx.key.id,
        endpointId: ctx.endpoint?.id ?? null,
        modelVersionId: ctx.version?.id ?? null,
        replica: ctx.replica?.id ?? null,
        region: ctx.replica?.region ?? null,
        clientIp: ctx.clientIp,
        startedAt: ctx.started,
        endedAt: Date.now(),
        ttftMs: ctx.ttftMs,
        status: ctx.status,
        errorClass: ctx.errorClass,
        promptTokens: ctx.promptTokens,
        completionTokens: ctx.completionTokens,
        userHash: ctx.userHash,
      };
      this.callLog.push(row);
      const tokens = ctx.promptTokens + ctx.completionTokens;
      if (tokens) void this.limiter.charge(this.limitBuckets(ctx, "tpm"), tokens).catch(() => {});
    }
    if (ctx.endpoint) {
      this.metrics.observe({ endpoint: ctx.endpoint.slug, version: ctx.version?.label ?? "none", tenant: ctx.tenant?.slug ?? "unknown", status: ctx.status }, durationS, ctx.ttftMs === null ? null : ctx.ttftMs / 1000, ctx.promptTokens, ctx.completionTokens);
    }
  }

  private async flushLastUsed() {
    if (!this.lastUsed.size) return;
    const entries = [...this.lastUsed];
    this.lastUsed.clear();
    const values = entries.map((_, i) => `($${i * 2 + 1}, $${i * 2 + 2}::timestamptz)`).join(",");
    await this.opts.pool
      .query(`UPDATE "ApiKey" k SET "lastUsedAt" = v.at FROM (VALUES ${values}) AS v(id, at) WHERE k.id = v.id AND (k."lastUsedAt" IS NULL OR k."lastUsedAt" < v.at)`, entries.flatMap(([id, at]) => [id, new Date(at)]))
      .catch(() => entries.forEach(([id, at]) => this.lastUsed.set(id, Math.max(at, this.lastUsed.get(id) ?? 0))));
  }
}

function readBody(req: http.IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > max) return Promise.reject(new HttpError(413, `The request body is ${declared} bytes; the limit is ${max} bytes.`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > max) {
        reject(new HttpError(413, `The request body is larger than the limit of ${max} bytes.`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function parseJson(raw: Buffer): Record<string, unknown> {
  try {
    const v = JSON.parse(raw.toString("utf8"));
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* fall through */
  }
  throw new HttpError(400, "The request body is not a JSON object.", null, "invalid_json");
}

function modelOf(body: Record<string, unknown>): string {
  if (typeof body.model !== "string" || !body.model) throw new HttpError(400, "model: required, the endpoint's name (e.g. chat).", "model");
  return body.model;
}

/** The fields the gateway relies on, checked before anything is routed. */
function validate(kind: Kind, b: Record<string, unknown>) {
  if (kind === "chat" && (!Array.isArray(b.messages) || b.messages.length === 0)) throw new HttpError(400, "messages: must be a non-empty array of {role, content}.", "messages");
  if (kind === "completions" && typeof b.prompt !== "string" && !(Array.isArray(b.prompt) && b.prompt.length)) throw new HttpError(400, "prompt: must be a string or an array of strings.", "prompt");
  if (kind === "embeddings" && typeof b.input !== "string" && !(Array.isArray(b.input) && b.input.length)) throw new HttpError(400, "input: must be a string or a non-empty array.", "input");
  if (b.stream !== undefined && typeof b.stream !== "boolean") throw new HttpError(400, "stream: must be true or false.", "stream");
  for (const f of ["max_tokens", "max_completion_tokens"]) {
    const v = b[f];
    if (v !== undefined && v !== null && (typeof v !== "number" || !Number.isInteger(v) || v < 1)) throw new HttpError(400, `${f}: must be a positive integer.`, f);
  }
}

/** A streamed event that carries text: chat deltas' `content` or legacy completions' `text`, not empty. */
const FIRST_TOKEN = /"(content|text)":"[^"]/;

/** Token counts from an answer's `usage` object, found by pattern rather than parsing the whole answer. */
const PROMPT_TOKENS = /"prompt_tokens"\s*:\s*(\d+)/;
const COMPLETION_TOKENS = /"completion_tokens"\s*:\s*(\d+)/;
function readUsage(text: string, ctx: Ctx) {
  const at = text.lastIndexOf('"usage"');
  if (at < 0) return; // an answer without usage logs zero tokens
  const tail = text.slice(at);
  ctx.promptTokens = Number(PROMPT_TOKENS.exec(tail)?.[1] ?? 0);
  ctx.completionTokens = Number(COMPLETION_TOKENS.exec(tail)?.[1] ?? 0);
}

function readSseUsage(text: string, ctx: Ctx) {
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: {") || !line.includes('"usage"')) continue;
    readUsage(line.slice(6), ctx);
  }
}

function errorClassOf(status: number): string {
  if (status === 401) return "auth";
  if (status === 404) return "not_found";
  if (status === 413) return "too_large";
  if (status === 429) return "rate_limited";
  if (status === 400) return "bad_request";
  return status >= 500 ? "gateway_error" : "client_error";
}
