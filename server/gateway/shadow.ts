import type { Pool as UpstreamPool } from "undici";
import { sentTo, type GatewayCall } from "./call.ts";
import type { EndpointConfig, VersionConfig } from "./config.ts";
import type { ReplicaHealth } from "./replica-health.ts";
import { pickReplica, usableReplicas } from "./routing.ts";
import { UpstreamCall } from "./upstream-call.ts";
import { FIRST_TOKEN } from "./usage.ts";

export interface ShadowDeps {
  upstream(url: string): UpstreamPool;
  health: ReplicaHealth;
  /** A shadow call's end: its status (0: no answer began), seconds to its end, and to its first token (streams). */
  observe(endpoint: string, version: string, status: number, seconds: number, ttftS: number | null): void;
}

/**
 * Each shadow version's running credit, by version id (so a config reload keeps it): its percent
 * added per call, a call copied each time it reaches 100. One entry per version ever shadowed.
 */
const credits = new Map<string, number>();

/**
 * The version this call is also sent to as shadow traffic, if any: a version at weight 0 with a
 * shadow percent takes exactly that share of the endpoint's calls (a credit, not a dice roll).
 */
export function shadowVersionFor(e: EndpointConfig): VersionConfig | null {
  for (const v of e.versions) {
    if (v.shadowPercent <= 0 || v.weight > 0) continue;
    const credit = (credits.get(v.id) ?? 0) + v.shadowPercent;
    credits.set(v.id, credit >= 100 ? credit - 100 : credit);
    if (credit >= 100) return v;
  }
  return null;
}

/**
 * Sends a copy of the call to a replica of the shadow version (one the tenant's KVKK rule allows)
 * and forgets it: the client's answer never waits for it, its answer is read and thrown away, it
 * writes no call-log row (so it is never billed) and only its latency, TTFT and status are kept.
 */
export function sendShadow(deps: ShadowDeps, call: GatewayCall, v: VersionConfig, req: { path: string; body: Buffer | string; stream: boolean }) {
  const e = call.endpoint!;
  const replica = pickReplica(usableReplicas(v, call.tenant!, e), deps.health.load, deps.health.coolingDown);
  if (!replica) return deps.observe(e.slug, v.label, 0, 0, null);
  sentTo(call, replica.region);
  const up = new UpstreamCall();
  const t0 = performance.now();
  let ttft: number | null = null;
  deps.health.begin(replica.id);
  deps.upstream(replica.url).dispatch({ path: req.path, method: "POST", headers: ["content-type", "application/json", "x-kule-request-id", call.requestId, "x-kule-shadow", "1"], body: req.body }, up);
  const read = async () => {
    await up.started;
    await up.pipe((chunk) => {
      if (ttft === null && req.stream && FIRST_TOKEN.test(chunk.toString("utf8"))) ttft = performance.now() - t0;
      return true;
    });
  };
  read()
    .then(
      () => deps.observe(e.slug, v.label, up.status, (performance.now() - t0) / 1000, ttft === null ? null : ttft / 1000),
      () => deps.observe(e.slug, v.label, up.status, (performance.now() - t0) / 1000, null),
    )
    .finally(() => deps.health.end(replica.id));
}
