import type http from "node:http";
import { httpStatusOf, isDomainError } from "../errors.ts";
import { classify } from "../endpoints/request-classes.ts";
import type { GatewayCall } from "./call.ts";
import type { EndpointConfig, GatewayConfig } from "./config.ts";
import { keyMayCall } from "./authenticate.ts";
import { proxyCall, type ProxyDeps, type ProxyRequest } from "./proxy.ts";
import { sendShadow, shadowVersionFor, type ShadowDeps } from "./shadow.ts";

/**
 * `target` as a stand-in for `named`, the endpoint the caller asked for: null when the caller's key
 * may not call it, or when it could only serve outside the named endpoint's region rule (the
 * stricter of the two rules holds, so a class or a fallback never moves a call out of where the
 * named endpoint keeps it; the tenant's own KVKK rule applies on top, in routing.ts).
 */
export function standIn(named: EndpointConfig, target: EndpointConfig | undefined, call: GatewayCall): EndpointConfig | null {
  if (!target || target === named || !keyMayCall(call.key!, target)) return null;
  const a = named.regionConstraint;
  const b = target.regionConstraint;
  if (!a || (b && b.startsWith(a))) return target;
  if (!b || a.startsWith(b)) return { ...target, regionConstraint: a };
  return null;
}

/** Sends the call on to its class's endpoint, when the named endpoint has classes and one matches (request-classes.ts). */
export function routeByClass(cfg: GatewayConfig, call: GatewayCall, headers: http.IncomingHttpHeaders, body: Record<string, unknown>) {
  const named = call.endpoint!;
  if (!named.classes.length) return;
  const c = classify(named.classes, { header: (n) => headers[n] as string | undefined, body });
  if (!c) return;
  const target = standIn(named, cfg.endpointsById.get(c.endpointId), call);
  if (!target) return;
  call.endpoint = target;
  call.requestClass = c.name;
}

/** The request with `model` naming `slug`: a replica of another endpoint answers only to its own name. */
function renamed(p: ProxyRequest, slug: string): ProxyRequest {
  if (p.body.model === slug || p.kind === "infer") return p;
  const body = { ...p.body, model: slug };
  return { ...p, body, raw: Buffer.from(JSON.stringify(body)) };
}

/**
 * Serves a call through its endpoint, and on a 5xx, a 429 or no first byte within `firstByteMs`
 * — always before any byte reached the client — through the endpoint's fallbacks in order (those
 * the key may call, within the region rule: standIn). `call.fallbacks` keeps the chain.
 * KServe tensors keep to their endpoint (their path names it).
 */
export async function serveCall(deps: ProxyDeps & ShadowDeps, cfg: GatewayConfig, call: GatewayCall, p: ProxyRequest, firstByteMs: number): Promise<void> {
  const named = call.endpoint!;
  const shadow = shadowVersionFor(named);
  if (shadow) sendShadow(deps, call, shadow, { path: p.path, body: renamed(p, named.slug).raw, stream: p.kind !== "infer" && p.body.stream === true });
  const chain = p.kind === "infer" ? [] : named.fallbackIds.map((id) => standIn(named, cfg.endpointsById.get(id), call)).filter((e): e is EndpointConfig => e !== null);
  if (!chain.length) {
    await proxyCall(deps, call, renamed(p, named.slug));
    return;
  }
  const endpoints = [named, ...chain];
  for (let i = 0; i < endpoints.length; i++) {
    const e = endpoints[i]!;
    const last = i === endpoints.length - 1;
    if (i > 0) {
      (call.fallbacks ??= []).push(`${endpoints[i - 1]!.slug}:${call.status}`);
      Object.assign(call, { endpoint: e, version: null, replica: null, routeReason: null, status: 0, errorClass: null });
    }
    try {
      const outcome = await proxyCall(deps, call, renamed(p, e.slug), last ? null : { firstByteMs });
      if (outcome === "answered") return;
    } catch (err) {
      if (last || p.res.headersSent || !isDomainError(err) || httpStatusOf(err) < 500) throw err;
      call.status = httpStatusOf(err);
    }
  }
}
