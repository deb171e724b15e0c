import type { Pool as UpstreamPool } from "undici";
import { errorFromStatus, UpstreamError } from "../../errors.ts";
import type { GatewayCall } from "../call.ts";
import { chooseCallVersion } from "../proxy.ts";
import { attemptReplicas, RETRY, type AttemptDeps } from "../replica-attempts.ts";
import { callPrefix } from "../replica-choice.ts";

export interface InferUpstreamDeps extends AttemptDeps {
  upstream(url: string): UpstreamPool;
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
 * version by the endpoint's split (KVKK applied), the replica and the retry as for HTTP
 * (replica-attempts.ts). Resolves with the replica's JSON answer; a replica's refusal is thrown as
 * the typed error of its status.
 */
export async function inferUpstream(deps: InferUpstreamDeps, call: GatewayCall, body: Record<string, unknown>, session: string | undefined): Promise<unknown> {
  const e = call.endpoint!;
  call.version = chooseCallVersion(deps.health, call, session);
  const payload = JSON.stringify(body);
  const path = `/v2/models/${encodeURIComponent(e.slug)}/infer`;
  const answer = await attemptReplicas(deps, call, callPrefix(call, body), async (a) => {
    const headers: Record<string, string> = { "content-type": "application/json", "x-kule-request-id": call.requestId };
    if (a.traceparent) headers.traceparent = a.traceparent;
    const res = await deps.upstream(a.replica.url).request({ method: "POST", path, headers, body: payload });
    const text = await res.body.text();
    a.ended(res.statusCode);
    if (a.retries(res.statusCode)) return RETRY;
    if (res.statusCode >= 500) deps.health.failed(a.replica.id);
    else deps.health.succeeded(a.replica.id);
    return { status: res.statusCode, text };
  });
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
