import type { Pool as UpstreamPool } from "undici";
import { errorFromStatus, UnavailableError, UpstreamError } from "../../errors.ts";
import type { GatewayCall } from "../call.ts";
import type { ReplicaHealth } from "../replica-health.ts";
import { chooseCallVersion } from "../proxy.ts";
import { callPrefix, replicaForCall } from "../replica-choice.ts";

export interface InferUpstreamDeps {
  upstream(url: string): UpstreamPool;
  health: ReplicaHealth;
}

/** The message of a replica's error answer ({"error": "…"} in KServe v2), else its status. */
function errorMessage(text: string, status: number): string {
  try {
    const e = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof e === "string") return e;
    if (e && typeof (e as { message?: unknown }).message === "string") return (e as { message: string }).message;
  } catch {
    /* not JSON: say the status */
  }
  return `it answered ${status}`;
}

/**
 * A gRPC ModelInfer sent on as KServe v2 REST infer, which every replica Kule runs speaks: the
 * version by the endpoint's split (KVKK applied), the replica by the endpoint's replica choice, and
 * one more replica tried on a refused connection or a 503, as proxy.ts does for HTTP (whose loop
 * writes straight into an HTTP response, so it cannot serve here). Resolves with the replica's
 * JSON answer; a replica's refusal is thrown as the typed error of its status.
 */
export async function inferUpstream(deps: InferUpstreamDeps, call: GatewayCall, body: Record<string, unknown>, session: string | undefined): Promise<unknown> {
  const e = call.endpoint!;
  const version = chooseCallVersion(deps.health, call, session);
  call.version = version;
  const payload = JSON.stringify(body);
  const tried = new Set<string>();
  const prefix = callPrefix(call, body);
  for (let attempt = 0; attempt < 2; attempt++) {
    const replica = replicaForCall(deps.health, call, version, prefix, tried);
    if (!replica) break;
    deps.health.begin(replica.id);
    const sent = performance.now();
    let answer: { status: number; text: string };
    try {
      const res = await deps.upstream(replica.url).request({
        method: "POST",
        path: `/v2/models/${encodeURIComponent(e.slug)}/infer`,
        headers: { "content-type": "application/json", "x-kule-request-id": call.requestId },
        body: payload,
      });
      answer = { status: res.statusCode, text: await res.body.text() };
    } catch (err) {
      deps.health.failed(replica.id);
      if (attempt === 1) throw new UpstreamError(`The replica serving ${e.slug} failed: ${(err as Error).message}`);
      continue;
    } finally {
      // The replica's share of the call: the gateway's own time is the rest (kule_gateway_overhead_seconds).
      call.upstreamMs += performance.now() - sent;
      deps.health.end(replica.id);
    }
    if (answer.status === 503 && attempt === 0) {
      deps.health.failed(replica.id);
      continue; // nothing reached the client yet: try another replica
    }
    if (answer.status >= 500) deps.health.failed(replica.id);
    else deps.health.succeeded(replica.id);
    if (answer.status !== 200) {
      call.status = answer.status;
      call.errorClass = answer.status >= 500 ? "upstream_error" : "upstream_rejected";
      throw errorFromStatus(answer.status, `The replica serving ${e.slug} refused the call: ${errorMessage(answer.text, answer.status)}`);
    }
    try {
      return JSON.parse(answer.text) as unknown;
    } catch {
      call.status = 502;
      call.errorClass = "upstream_broken";
      throw new UpstreamError(`The replica serving ${e.slug} answered with a body that is not JSON.`);
    }
  }
  call.errorClass = "no_ready_replica";
  throw new UnavailableError(`No replica of ${e.slug} could take the request. Try again shortly.`);
}
