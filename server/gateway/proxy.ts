import type http from "node:http";
import type { Pool as UpstreamPool } from "undici";
import { UnavailableError } from "../errors.ts";
import type { GatewayCall } from "./call.ts";
import type { VersionConfig } from "./config.ts";
import type { Kind } from "./request.ts";
import type { ReplicaHealth } from "./replica-health.ts";
import { chooseVersion, nextWeighted, stickyPoint, usableReplicas } from "./routing.ts";
import { callPrefix } from "./replica-choice.ts";
import { attemptReplicas, RETRY, type AttemptDeps } from "./replica-attempts.ts";
import { UpstreamCall } from "./upstream-call.ts";
import { FIRST_TOKEN, readSseUsage, readUsage } from "./usage.ts";
import { TURKEY_REGION_PREFIX } from "../shared/regions.ts";
import { cacheSaltOf, saltedPrefix, upstreamJson } from "./tenant-cache.ts";

export interface ProxyDeps extends AttemptDeps {
  upstream(url: string): UpstreamPool;
  /** Hands the call's row to the journal; called before the answer's last bytes go out, so an answered call always has its row. */
  record(call: GatewayCall): void;
}

export interface ProxyRequest {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  kind: Kind;
  body: Record<string, unknown>;
  raw: Buffer;
  path: string;
}

/** A call that may still go to a fallback endpoint: how long its replica may take to send a first byte. */
export interface FallbackWindow {
  firstByteMs: number;
}

/** What became of a call: answered (or failed) to the client, or failed before any byte so a fallback endpoint may take it. */
export type ProxyOutcome = "answered" | "fallback";

const clientGoneError = () => new Error("The client closed the connection.");

/** The version a call goes to: by the caller's sticky point, else by smooth weighted round robin. */
function versionFor(deps: ProxyDeps, call: GatewayCall, p: ProxyRequest): VersionConfig {
  return chooseCallVersion(deps.health, call, (typeof p.body.user === "string" && p.body.user) || (p.req.headers["x-kule-session"] as string | undefined));
}

/** The version of the call's endpoint it goes to, among those with a replica its tenant may use (KVKK); HTTP and gRPC alike. */
export function chooseCallVersion(health: ReplicaHealth, call: GatewayCall, session: string | undefined): VersionConfig {
  const e = call.endpoint!;
  const tenant = call.tenant!;
  const sticky = e.sticky ? session : undefined;
  const usable = (v: VersionConfig) => usableReplicas(v, tenant, e).some((r) => !health.coolingDown(r.id));
  const version = sticky ? chooseVersion(e.versions, stickyPoint(sticky), usable) : nextWeighted(e.versions, usable);
  if (version) return version;
  const anyReady = e.versions.some((v) => v.weight > 0 && v.replicas.length > 0);
  call.errorClass = anyReady ? "no_replica_in_region" : "no_ready_replica";
  throw new UnavailableError(
    anyReady
      ? e.special && !tenant.specialAbroad
        ? `No replica of ${e.slug} is ready in Turkey (${TURKEY_REGION_PREFIX}*). ${e.slug} serves special categories of personal data (KVKK Art. 6), which go abroad only under a safeguard and an Art. 6(3) condition recorded for this tenant (Art. 9), so Kule will not send the call abroad. Try again shortly.`
        : `No replica of ${e.slug} is ready in Turkey (${TURKEY_REGION_PREFIX}*), and no transfer safeguard recorded for this tenant covers where the ready ones are (KVKK Art. 9), so Kule will not send the call abroad. Try again shortly.`
      : `No replica of ${e.slug} is ready to serve right now. Try again shortly.`,
  );
}

/**
 * Picks a version by weight and a replica by the endpoint's replica choice, once more elsewhere
 * on a connect failure or 503 (replica-attempts.ts). With a `fallback` window, a 5xx, a 429 or no first byte in time
 * ends the call before anything reached the client, as "fallback" (fallbacks.ts takes it on).
 */
export async function proxyCall(deps: ProxyDeps, call: GatewayCall, p: ProxyRequest, fallback: FallbackWindow | null = null): Promise<ProxyOutcome> {
  const { res, kind, body } = p;
  const e = call.endpoint!;
  const version = versionFor(deps, call, p);
  call.version = version;

  // Streams always ask the upstream for usage (the call log needs tokens); if the client did not ask, the usage event is dropped on the way out.
  const stream = kind !== "infer" && body.stream === true;
  const clientWantsUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  // Prompts of chat and completions are what vLLM caches by prefix.
  const salt = kind === "chat" || kind === "completions" ? cacheSaltOf(call) : null;
  // Otherwise the client's bytes go upstream untouched (no re-serialising on the hot path).
  const rewrite = (stream && !clientWantsUsage) || salt !== null || body.cache_salt !== undefined;
  const upstreamBody = rewrite ? JSON.stringify(upstreamJson(body, salt, stream && !clientWantsUsage)) : p.raw;

  let upstreamCall: UpstreamCall | null = null;
  let clientGone = false;
  res.on("close", () => {
    if (res.writableFinished) return;
    clientGone = true;
    upstreamCall?.abort(clientGoneError());
  });
  return attemptReplicas(deps, call, saltedPrefix(callPrefix(call, body), salt), async (a): Promise<ProxyOutcome | typeof RETRY> => {
    const replica = a.replica;
    const up = (upstreamCall = new UpstreamCall());
    try {
      if (clientGone) throw clientGoneError(); // left while the last attempt failed: the catch logs 499
      const upHeaders = ["content-type", "application/json", "x-kule-request-id", call.requestId];
      if (a.traceparent) upHeaders.push("traceparent", a.traceparent);
      deps.upstream(replica.url).dispatch({ path: p.path, method: "POST", headers: upHeaders, body: upstreamBody }, up);
      if (fallback && !(await firstByteWithin(up, stream, fallback.firstByteMs))) {
        up.abort(new Error("no first byte in time"));
        deps.health.failed(replica.id);
        call.status = 504;
        call.errorClass = "upstream_timeout";
        return "fallback";
      }
      await up.started;
      if (a.retries(up.status)) {
        await up.body();
        return RETRY; // nothing reached the client yet: try another replica
      }
      if (fallback && (up.status >= 500 || up.status === 429)) {
        await up.body();
        if (up.status >= 500) deps.health.failed(replica.id);
        call.status = up.status;
        call.errorClass = up.status === 429 ? "upstream_rejected" : "upstream_error";
        return "fallback";
      }
      if (up.status >= 500) deps.health.failed(replica.id);
      else deps.health.succeeded(replica.id);
      call.status = up.status;
      if (up.status >= 400) call.errorClass = up.status >= 500 ? "upstream_error" : "upstream_rejected";
      const contentType = String(up.headers["content-type"] ?? "application/json");
      // One header list, written once: no setHeader() before it, so Node takes writeHead's fast path.
      const headers = ["content-type", contentType, "x-kule-request-id", call.requestId, "x-kule-version", version.label, "x-kule-endpoint-revision", String(e.revision), "x-kule-replica-region", replica.region];
      if (call.trace) headers.push("traceparent", call.trace.traceparent);
      if (stream && up.status === 200) {
        res.writeHead(up.status, headers);
        await pipeStream(up, res, call, clientWantsUsage, deps.record);
      } else {
        const buf = await up.body();
        a.ended(up.status);
        if (up.status === 200 && kind !== "infer") readUsage(buf.toString("utf8"), call);
        headers.push("content-length", String(buf.length));
        res.writeHead(up.status, headers);
        deps.record(call);
        res.end(buf);
      }
      return "answered";
    } catch (err) {
      a.ended(up.status, (err as Error).name || "error");
      if (clientGone) {
        call.status = 499;
        call.errorClass = "client_closed";
        return "answered";
      }
      if (!res.headersSent) throw err; // before any byte: attemptReplicas tries elsewhere, or fails the call
      deps.health.failed(replica.id);
      call.status = 502;
      call.errorClass = "upstream_broken";
      deps.record(call);
      res.end();
      return "answered";
    } finally {
      a.ended(up.status);
    }
  });
}

/** Whether the replica began its answer within `ms` (for a stream: sent its first chunk); a refused connection counts as begun, and fails as before. */
async function firstByteWithin(up: UpstreamCall, stream: boolean, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)));
  const begun = up.started.then(() => (stream && up.status === 200 ? up.firstData() : undefined)).then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([begun, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * SSE passes through chunk by chunk as it arrives (the upstream paused while the client is slow
 * to take it), as the bytes that came: a chunk is looked into only for the first token (TTFT) and
 * for `"usage"`, and only the usage event the client did not ask for is cut out. Events a chunk
 * splits wait for their end, so that event is never half sent.
 */
async function pipeStream(up: UpstreamCall, res: http.ServerResponse, call: GatewayCall, clientWantsUsage: boolean, record: (call: GatewayCall) => void) {
  let carry: Buffer | null = null;
  const onDrain = () => up.resume();
  res.on("drain", onDrain);
  try {
    await up.pipe((chunk) => {
      // TTFT: until the first content delta reaches the gateway (the role-only first event carries no token).
      if (call.ttftMs === null && FIRST_TOKEN.test(chunk.toString("utf8"))) call.ttftMs = Date.now() - call.started;
      if (clientWantsUsage) {
        if (chunk.includes('"usage"')) readSseUsage(chunk.toString("utf8"), call);
        return res.write(chunk);
      }
      const buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
      const end = buf.lastIndexOf("\n\n") + 2;
      carry = end < buf.length ? buf.subarray(end) : null;
      if (end < 2) return true;
      const events = end === buf.length ? buf : buf.subarray(0, end);
      if (!events.includes('"usage"')) return res.write(events);
      const rest = withoutUsageEvent(events.toString("utf8"), call);
      return rest ? res.write(rest) : true;
    });
  } finally {
    res.off("drain", onDrain);
  }
  record(call);
  res.end(carry ?? "");
}

/** The events but the usage-only one (`"choices":[]`), whose counts go to the call. */
function withoutUsageEvent(text: string, call: GatewayCall): string {
  let out = "";
  for (let at = 0; at < text.length; ) {
    const cut = text.indexOf("\n\n", at) + 2;
    const event = text.slice(at, cut);
    at = cut;
    if (event.includes('"usage"') && event.includes('"choices":[]')) readSseUsage(event, call);
    else out += event;
  }
  return out;
}
