import { randomUUID } from "node:crypto";
import type { EndpointConfig, KeyConfig, ReplicaConfig, TenantConfig, VersionConfig } from "./config.ts";
import type { CallLogRow } from "./call-log.ts";
import type { CallTrace } from "./tracing.ts";
import type { RouteReason } from "./replica-choice.ts";

/** Which API a request came in on: OpenAI's (errors in its JSON) or KServe v2's. */
export type Api = "openai" | "kserve";

/**
 * One request through the gateway, from arrival to its call-log row: who called (key, tenant),
 * where it went (endpoint, version, replica), and how it ended. Filled in as the request is
 * handled; `callLogRow` turns it into the row written for it.
 */
export interface GatewayCall {
  requestId: string;
  started: number;
  /** performance.now() at arrival: the gateway's own time is measured against it, to the microsecond. */
  t0: number;
  /** Milliseconds spent waiting on replicas (every attempt, from sending to their answer's end). */
  upstreamMs: number;
  api: Api;
  key: KeyConfig | null;
  tenant: TenantConfig | null;
  endpoint: EndpointConfig | null;
  version: VersionConfig | null;
  replica: ReplicaConfig | null;
  ttftMs: number | null;
  /** The status answered; 0 until there is one. */
  status: number;
  errorClass: string | null;
  promptTokens: number;
  completionTokens: number;
  clientIp: string | null;
  /** The request's `user` field: held for the call's lifetime only, its keyed hash is what is logged (row-keys.ts). */
  user: string | null;
  /** Its row went to the journal (before the answer's last bytes): once per call. */
  recorded: boolean;
  /** The GenAI operation (`gen_ai.operation.name`) of an inference call; null for the other routes. */
  operation: string | null;
  /** Its OpenTelemetry trace, when tracing is on. */
  trace: CallTrace | null;
  /** Why its replica was chosen (replica-choice.ts). */
  routeReason: RouteReason | null;
  /** The request class that sent it on from the endpoint it named (request-class.ts). */
  requestClass: string | null;
  /** Endpoints that failed before the one that answered, `slug:status` each (fallbacks.ts). */
  fallbacks: string[] | null;
  /** Regions the call was also sent to: an earlier attempt's, a shadow copy's (KVKK Art. 9 counts each transfer). */
  sentTo: string[] | null;
}

/** Notes that the call (or a copy of it) went to `region` besides wherever it is answered from. */
export function sentTo(call: GatewayCall, region: string) {
  if (!call.sentTo) call.sentTo = [region];
  else if (!call.sentTo.includes(region)) call.sentTo.push(region);
}

/** The regions besides the answering one, comma-joined, or null: the row's `otherRegions`. */
function otherRegions(call: GatewayCall): string | null {
  if (!call.sentTo) return null;
  const others = call.sentTo.filter((r) => r !== call.replica?.region);
  return others.length ? others.join(",") : null;
}

export function newCall(api: Api, clientIp: string | null): GatewayCall {
  return {
    requestId: randomUUID(),
    started: Date.now(),
    t0: performance.now(),
    upstreamMs: 0,
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
    clientIp,
    user: null,
    recorded: false,
    operation: null,
    trace: null,
    routeReason: null,
    requestClass: null,
    fallbacks: null,
    sentTo: null,
  };
}

/** The gateway's own share of a call that reached a replica, seconds: its whole time minus the replicas'; null for the others. */
export function overheadSeconds(call: GatewayCall, now = performance.now()): number | null {
  return call.replica ? Math.max(0, now - call.t0 - call.upstreamMs) / 1000 : null;
}

/** The call's row, once it was authenticated and answered; calls refused before that have none. Its IP is in clear until row-keys.ts protects it. */
export function callLogRow(call: GatewayCall): CallLogRow | null {
  if (!call.tenant || !call.key || !call.status) return null;
  return {
    requestId: call.requestId,
    tenantId: call.tenant.id,
    apiKeyId: call.key.id,
    endpointId: call.endpoint?.id ?? null,
    endpointVersionId: call.version?.id ?? null,
    replica: call.replica?.id ?? null,
    region: call.replica?.region ?? null,
    clientIp: call.clientIp,
    startedAt: call.started,
    endedAt: Date.now(),
    ttftMs: call.ttftMs,
    status: call.status,
    errorClass: call.errorClass,
    promptTokens: call.promptTokens,
    completionTokens: call.completionTokens,
    userHash: null,
    traceId: call.trace?.traceId ?? null,
    routeReason: call.routeReason,
    requestClass: call.requestClass,
    fallbackChain: call.fallbacks ? call.fallbacks.join(">") : null,
    otherRegions: otherRegions(call),
  };
}
