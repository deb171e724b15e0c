import type http from "node:http";
import type { Pool as UpstreamPool } from "undici";
import { NotFoundError, UnavailableError, UpstreamError } from "../errors.ts";
import type { GatewayCall } from "./call.ts";
import type { EndpointConfig, GatewayConfig } from "./config.ts";
import type { ReplicaHealth } from "./replica-health.ts";
import type { AttemptDeps } from "./replica-attempts.ts";
import { pickReplica, usableReplicas } from "./routing.ts";

/**
 * The Open Inference Protocol's (KServe v2) REST surface beside infer: liveness and readiness of
 * the gateway, its metadata, and each model's (an endpoint's) readiness and metadata. Model routes
 * need a key that may call the endpoint, as infer does; they are not inference calls, so their
 * call-log rows name no endpoint and are never charged.
 */
export type KserveGet = { kind: "live" } | { kind: "ready" } | { kind: "server" } | { kind: "model" | "model-ready"; slug: string };

const MODEL = /^\/v2\/models\/([^/]+)(?:\/versions\/[^/]+)?(\/ready)?$/;

export function kserveGetRoute(path: string): KserveGet | null {
  if (path === "/v2/health/live") return { kind: "live" };
  if (path === "/v2/health/ready") return { kind: "ready" };
  if (path === "/v2" || path === "/v2/") return { kind: "server" };
  const m = MODEL.exec(path);
  return m ? { kind: m[2] ? "model-ready" : "model", slug: decodeURIComponent(m[1]!) } : null;
}

export interface KserveDeps extends AttemptDeps {
  config: () => GatewayConfig | null;
  /** Authenticates the call and finds the endpoint its key may call (a 401 or 404 otherwise). */
  endpointFor: (call: GatewayCall, slug: string) => EndpointConfig;
  upstream: (url: string) => UpstreamPool;
  /** Hands the call's row to the journal; called before the answer's last bytes go out. */
  record: (call: GatewayCall) => void;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
};

/** A replica of the endpoint this caller may be served by (KVKK region, not cooling down), if any. */
export function servingReplica(e: EndpointConfig, call: GatewayCall, health: ReplicaHealth) {
  for (const v of [...e.versions].sort((a, b) => b.weight - a.weight)) {
    if (v.weight <= 0) continue;
    const r = pickReplica(usableReplicas(v, call.tenant!, e), health.load, health.coolingDown);
    if (r) return r;
  }
  return null;
}

/** Answers a KServe v2 GET; `call` (authenticated) is needed for the model routes only. */
export async function serveKserveGet(route: KserveGet, call: GatewayCall | null, res: http.ServerResponse, deps: KserveDeps) {
  if (route.kind === "live") return json(res, 200, { live: true });
  if (route.kind === "ready") return json(res, deps.config() ? 200 : 503, { ready: !!deps.config() });
  if (route.kind === "server") return json(res, 200, { name: "kule", version: "0.1.0", extensions: [] });
  const answer = (status: number, body: unknown) => {
    call!.status = status;
    deps.record(call!);
    json(res, status, body);
  };
  const e = deps.endpointFor(call!, route.slug);
  const replica = servingReplica(e, call!, deps.health);
  if (route.kind === "model-ready") return answer(replica ? 200 : 503, { name: e.slug, ready: !!replica });
  answer(200, await modelMetadata(e, call!, deps));
}

/** A model's metadata (its tensors) as a replica of the endpoint tells it, under the endpoint's name: the engine knows them, the gateway does not. */
export async function modelMetadata(e: EndpointConfig, call: GatewayCall, deps: Pick<KserveDeps, "upstream" | "health">): Promise<Record<string, unknown>> {
  const replica = servingReplica(e, call, deps.health);
  if (!replica) throw new UnavailableError(`No replica of ${e.slug} is ready to tell its metadata. Try again shortly.`);
  const upstream = await deps
    .upstream(replica.url)
    .request({ method: "GET", path: `/v2/models/${encodeURIComponent(e.slug)}` })
    .catch((err: Error) => {
      throw new UpstreamError(`The replica serving ${e.slug} failed: ${err.message}`);
    });
  const body = (await upstream.body.json().catch(() => null)) as Record<string, unknown> | null;
  if (upstream.statusCode === 404) throw new NotFoundError("Model", { message: `The model '${e.slug}' does not exist or you do not have access to it.` });
  if (upstream.statusCode !== 200 || !body) throw new UpstreamError(`The replica serving ${e.slug} answered ${upstream.statusCode} for its metadata.`);
  return { ...body, name: e.slug };
}
