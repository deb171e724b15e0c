import http from "node:http";
import os from "node:os";
import type { AddressInfo, Socket } from "node:net";
import { Pool as UpstreamPool } from "undici";
import { DomainError, httpStatusOf, isDomainError, NotFoundError, UnavailableError } from "../errors.ts";
import { processRings } from "../call-log/keys/rings.ts";
import { KeyGuard } from "./key-guard.ts";
import { protectRow, ringOfCall } from "./row-keys.ts";
import { servesExternal, type GatewayConfig } from "./config.ts";
import { guardedConnect } from "../http/outbound.ts";
import { ConfigStore } from "./config-store.ts";
import { ColdStartGate } from "./cold-start.ts";
import { MemoryLimiter, type Limiter } from "./limits.ts";
import { CallLogThread } from "./call-log-thread.ts";
import { gatewayMetrics } from "./metrics.ts";
import { errorClassOf, sendError } from "./errors.ts";
import { callLogRow, newCall, overheadSeconds, type GatewayCall } from "./call.ts";
import { inferenceRoute, modelOf, parseJson, readBody } from "./request.ts";
import { validateOpenAi } from "./openai-rules.ts";
import { validateInfer } from "./kserve-rules.ts";
import { kserveGetRoute, serveKserveGet, type KserveDeps } from "./kserve-routes.ts";
import { authenticate, endpointFor, keyMayCall } from "./authenticate.ts";
import { chargeTokens, checkLimits } from "./call-limits.ts";
import { ReplicaHealth } from "./replica-health.ts";
import { routeByClass, serveCall } from "./endpoint-chain.ts";
import { OverloadGate } from "./overload/gate.ts";
import { admitCall } from "./admission.ts";
import { overloadMetrics } from "./overload/metrics.ts";
import { KeysLastUsed } from "./keys-last-used.ts";
import { startAdminServer, type AdminOptions } from "./admin-server.ts";
import { TrustedProxies } from "../http/client-ip.ts";
import { genAiOperation } from "./tracing.ts";
import { startGrpcServer, type GrpcDeps } from "./grpc/service.ts";
import type { GatewayOptions } from "./gateway-options.ts";

const ROUTES_HINT = "Kule serves /v1/chat/completions, /v1/completions, /v1/embeddings, /v1/models and /v2/models/{endpoint}/infer.";

/**
 * The inference gateway: authenticates tenant keys, enforces limits and KVKK residency, splits
 * traffic by the endpoint's weights, proxies to replicas over pooled keep-alive connections
 * (streams pass through as they arrive, proxy.ts), and logs one row per request.
 */
export class Gateway {
  readonly config: ConfigStore;
  readonly callLog: CallLogThread;
  readonly metrics: ReturnType<typeof gatewayMetrics>;
  private readonly limiter: Limiter;
  private readonly health: ReplicaHealth;
  private readonly coldStart: ColdStartGate;
  readonly overload: OverloadGate;
  private readonly trustedProxies: TrustedProxies;
  /** What the KServe v2 routes beside infer need; model routes log no endpoint, so they are never charged. */
  private readonly kserveDeps: KserveDeps;
  private readonly upstreams = new Map<string, UpstreamPool>();
  private readonly lastUsed: KeysLastUsed;
  /** Under which key versions calls are logged; until the config says, none (calls are refused). */
  readonly keys: KeyGuard;
  private inFlight = 0;
  /** Keep-alive connections to close after their next answer, so their clients reconnect to a less busy worker (placement.ts). */
  shed = 0;
  shedTotal = 0;
  /** Connections handed over by a multi-process gateway's primary: received in all, and still open. */
  handoffsReceived = 0;
  handedOff = 0;
  private server: http.Server | null = null;
  private admin: http.Server | null = null;
  private grpc: Awaited<ReturnType<typeof startGrpcServer>> | null = null;
  /** host:port of the gRPC listener, once listening (when asked for). */
  grpcUrl: string | null = null;
  /** Where /metrics and /sd answer (admin-server.ts), once listening. */
  adminUrl: string | null = null;

  constructor(private readonly opts: GatewayOptions) {
    this.config = new ConfigStore(opts.pool, opts.databaseUrl);
    this.coldStart = new ColdStartGate(this.config, opts.pool);
    this.callLog = new CallLogThread({ databaseUrl: opts.databaseUrl, spoolDir: opts.spoolDir, flushMs: opts.callLogFlushMs, connectTimeoutMs: opts.pool.options.connectionTimeoutMillis || 1000 });
    this.limiter = opts.limiter ?? new MemoryLimiter();
    this.health = new ReplicaHealth(opts.cooldown);
    this.overload = new OverloadGate(() => this.config.current, { inFlight: this.health.load, fetchText: (url) => this.engineMetrics(url), processes: opts.processes ?? 1, everyMs: opts.engineLoadEveryMs ?? 1000, enabled: opts.overloadQueue ?? true });
    this.trustedProxies = opts.trustedProxies ?? new TrustedProxies([]);
    this.kserveDeps = { config: () => this.config.current, endpointFor: (call, slug) => endpointFor(this.cfg, call.key!, slug), upstream: (url) => this.upstream(url), health: this.health, genAi: opts.genAi ?? null, record: this.record };
    this.keys = new KeyGuard(opts.pool, opts.rings ?? processRings(), this.config);
    this.metrics = gatewayMetrics({ inFlight: () => this.inFlight, callLog: this.callLog, configAge: () => this.config.ageSeconds, limitsShared: this.limiter.shared });
    this.overload.observer = overloadMetrics(this.metrics.registry, this.overload, () => this.config.current);
    this.lastUsed = new KeysLastUsed(opts.pool);
  }

  /**
   * Serves the API on `port` and the internals on the admin listener (by default any free loopback
   * port). `port` null: a worker of a multi-process gateway, whose primary accepts the API's
   * connections and hands each over (acceptConnection); the URL is then the primary's to say.
   */
  async listen(port: number | null, host = "127.0.0.1", admin: AdminOptions = { port: 0, host: "127.0.0.1", token: null }): Promise<string> {
    await this.keys.start(this.opts.instance ?? `${os.hostname()}:${port}:${process.pid}`);
    await this.config.start();
    this.overload.start();
    this.admin = await startAdminServer(admin, { metrics: () => this.metricsText() });
    this.adminUrl = `http://${admin.host}:${(this.admin.address() as AddressInfo).port}`;
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 65_000;
    if (port !== null) await new Promise<void>((r) => this.server!.listen(port, host, () => r()));
    if (this.opts.grpcPort !== undefined) {
      this.grpc = await startGrpcServer(this.grpcDeps(), this.opts.grpcPort, host, this.opts.maxBodyBytes);
      this.grpcUrl = this.grpc.url;
    }
    return port === null ? "" : `http://${host}:${(this.server.address() as AddressInfo).port}`;
  }

  /** A connection the primary accepted (paused, so no byte is lost): served as if this process had. */
  acceptConnection(socket: Socket) {
    this.handoffsReceived++;
    this.handedOff++;
    socket.once("close", () => this.handedOff--);
    this.server!.emit("connection", socket);
    socket.resume();
  }

  private async metricsText() {
    const text = await (this.opts.metricsText ?? (() => this.metrics.registry.metrics()))();
    return { text, contentType: this.metrics.registry.contentType };
  }

  async close() {
    this.lastUsed.stop();
    this.overload.stop();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server?.closeAllConnections();
    await this.grpc?.close();
    this.admin?.closeAllConnections();
    await new Promise<void>((r) => (this.admin ? this.admin.close(() => r()) : r()));
    await this.callLog.close();
    await this.lastUsed.flush();
    await this.config.close();
    await Promise.all([...this.upstreams.values()].map((p) => p.close()));
    await this.opts.tracing?.shutdown();
    await this.opts.genAi?.shutdown();
  }

  private get cfg(): GatewayConfig {
    if (!this.config.current) throw new UnavailableError("The gateway has no configuration yet.");
    return this.config.current;
  }

  private upstream = (url: string): UpstreamPool => {
    let p = this.upstreams.get(url);
    if (!p) {
      // A stream holds its connection while it lasts: as many as vLLM runs sequences at once
      // (--max-num-seqs, 256 by default), or streams past 64 would queue here, not at the engine.
      p = new UpstreamPool(url, { connections: 256, pipelining: 1, keepAliveTimeout: 60_000, connectTimeout: 2000, ...(servesExternal(this.cfg, url) ? { connect: guardedConnect(url) } : {}) });
      this.upstreams.set(url, p);
    }
    return p;
  };

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    if (this.shed > 0) {
      this.shed--;
      this.shedTotal++;
      res.shouldKeepAlive = false;
    }
    const path = (req.url ?? "/").split("?")[0]!;
    const kserve = req.method === "GET" ? kserveGetRoute(path) : null;
    // Liveness, readiness and server metadata answer anyone, as load balancers and probes expect.
    if (req.method === "GET" && path === "/healthz") return void res.end("ok");
    if (kserve && (kserve.kind === "live" || kserve.kind === "ready" || kserve.kind === "server")) return serveKserveGet(kserve, null, res, this.kserveDeps);
    const route = inferenceRoute(req.method, path);
    const call = newCall(route?.kind === "infer" || kserve ? "kserve" : "openai", this.trustedProxies.clientIp(req.socket.remoteAddress, req.headers["x-forwarded-for"]));
    if (route) this.inference(call, req.headers, route.kind, route.slug ?? null);
    this.inFlight++;
    try {
      if (req.method === "GET" && path === "/v1/models") return this.listModels(req, res, call);
      if (kserve) {
        this.authenticate(req, call);
          return await serveKserveGet(kserve, call, res, this.kserveDeps);
      }
      if (!route) throw new NotFoundError("Route", { message: `No route for ${req.method} ${path}. ${ROUTES_HINT}` });
      this.authenticate(req, call);
      const raw = await readBody(req, this.opts.maxBodyBytes);
      const body = parseJson(raw);
      if (typeof body.user === "string" && body.user) call.user = body.user;
      call.endpoint = endpointFor(this.cfg, call.key!, route.slug ?? modelOf(body));
      if (route.kind !== "infer") routeByClass(this.cfg, call, req.headers, body);
      if (route.kind === "infer") validateInfer(body);
      else validateOpenAi(route.kind, body, call.endpoint);
      await checkLimits(this.limiter, call);
      const admitted = await admitCall(this.coldStart, this.overload, call, body, req.headers, res);
      if (!admitted) return;
      try {
        await serveCall({ upstream: this.upstream, health: this.health, genAi: this.opts.genAi ?? null, record: this.record, observe: this.metrics.observeShadow }, this.cfg, call, { req, res, kind: route.kind, body, raw, path }, this.opts.fallbackFirstByteMs ?? 10_000);
      } finally {
        this.overload.release(admitted, call);
      }
    } catch (e) {
      this.refuse(res, call, e);
    } finally {
      this.inFlight--;
      this.finish(call);
    }
  }

  /** A replica's engine's /metrics page, over its pooled connections (null when it has none). */
  private engineMetrics = async (url: string): Promise<string | null> => {
    const r = await this.upstream(url).request({ path: "/metrics", method: "GET", headersTimeout: 1000, bodyTimeout: 1000 });
    const text = await r.body.text();
    return r.statusCode === 200 ? text : null;
  };

  /** Answers a call that failed before (or instead of) a replica's answer. */
  private refuse(res: http.ServerResponse, call: GatewayCall, e: unknown) {
    const err = isDomainError(e) ? e : new DomainError("The gateway failed to handle this request.");
    if (err !== e) console.error("[gateway]", e);
    call.status = httpStatusOf(e);
    call.errorClass ??= errorClassOf(call.status);
    this.record(call);
    if (res.headersSent) return void res.end();
    // The served path writes its headers in one list (proxy.ts); an error sets them here.
    res.setHeader("x-kule-request-id", call.requestId);
    if (call.trace) res.setHeader("traceparent", call.trace.traceparent);
    if (call.version) {
      res.setHeader("x-kule-version", call.version.label);
      res.setHeader("x-kule-endpoint-revision", String(call.endpoint!.revision));
    }
    sendError(res, call.api, err, call.status);
  }

  /** Marks `call` an inference call of route `kind`, for its OpenTelemetry span and GenAI metrics; HTTP and gRPC alike. */
  private inference(call: GatewayCall, carrier: Record<string, string | string[] | undefined>, kind: string, model: string | null) {
    call.operation = genAiOperation(kind);
    if (this.opts.tracing) call.trace = this.opts.tracing.begin(carrier, call.operation, model, call.started);
  }

  private authenticate(req: http.IncomingMessage, call: GatewayCall) {
    this.signIn(call, req.headers.authorization);
  }

  private signIn(call: GatewayCall, authorization: string | undefined) {
    // A call this gateway could not log is not served (before it has a tenant, so it has no row either).
    this.keys.check();
    const { key, tenant } = authenticate(this.cfg, authorization);
    call.key = key;
    call.tenant = tenant;
    this.lastUsed.touch(key.id);
  }

  /** The gRPC listener's share of this gateway: the same keys, limits, routing, call log and metrics as HTTP. */
  private grpcDeps(): GrpcDeps {
    return {
      ...this.kserveDeps,
      authenticate: (call, authorization) => this.signIn(call, authorization),
      checkLimits: (call) => checkLimits(this.limiter, call),
      holdColdStart: (call, signal) => this.coldStart.hold(call, signal),
      clientIp: (remote, forwardedFor) => this.trustedProxies.clientIp(remote, forwardedFor),
      inference: (call, traceparent, model) => this.inference(call, { traceparent }, "infer", model),
      enter: () => void this.inFlight++,
      leave: (call) => {
        this.inFlight--;
        this.finish(call);
      },
    };
  }

  private listModels(req: http.IncomingMessage, res: http.ServerResponse, call: GatewayCall) {
    this.authenticate(req, call);
    const data = [...this.cfg.endpointsBySlug.values()].filter((e) => keyMayCall(call.key!, e)).map((e) => ({ id: e.slug, object: "model", created: 0, owned_by: "kule" }));
    const body = JSON.stringify({ object: "list", data });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "x-kule-request-id": call.requestId });
    call.status = 200;
    this.record(call);
    res.end(body);
  }

  /** The call's row to the journal, once; the answered paths call it before their last write, finish() for the rest (a client gone). */
  private record = (call: GatewayCall) => {
    if (call.recorded) return;
    call.recorded = true;
    const row = callLogRow(call);
    if (!row) return;
    if (this.keys.rowKeys) this.callLog.push(protectRow(row, call.user, this.keys.rowKeys, ringOfCall(call)));
    chargeTokens(this.limiter, call);
  };

  private finish(call: GatewayCall) {
    this.record(call);
    call.trace?.end(call);
    const durationS = (Date.now() - call.started) / 1000;
    const genAi = this.opts.genAi;
    if (genAi && call.operation) {
      genAi.call(call, durationS);
      genAi.tokens(call);
    }
    if (call.endpoint) {
      this.metrics.observe({ endpoint: call.endpoint.slug, version: call.version?.label ?? "none", tenant: call.tenant?.slug ?? "unknown", status: call.status }, durationS, call.ttftMs === null ? null : call.ttftMs / 1000, call.promptTokens, call.completionTokens, call.endpoint.slo, overheadSeconds(call));
    }
  }
}
