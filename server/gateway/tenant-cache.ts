/**
 * Tenant-private prefix caches. vLLM reuses a cached prompt prefix for any request whose blocks
 * hash the same, so two tenants with one system prompt share KV blocks — and one can time the
 * other's prompts (a first token that comes faster says the prefix was cached). vLLM's
 * `cache_salt` goes into the first block's hash: requests with different salts share nothing.
 * Where a tenant's cache is private (its setting, on by default for special categories, or the
 * endpoint's), the gateway sets the tenant's random salt; a salt the client sent is never passed
 * on, so nobody can send another tenant's.
 */
import type { GatewayCall } from "./call.ts";

/** The cache_salt the call carries upstream, or null. */
export function cacheSaltOf(call: GatewayCall): string | null {
  const t = call.tenant!;
  return t.privateCache || call.endpoint!.privateCache ? t.cacheSalt : null;
}

/** The body sent upstream: the tenant's salt set (or the client's own removed), and stream usage asked for when `addUsage`. */
export function upstreamJson(body: Record<string, unknown>, salt: string | null, addUsage: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  if (salt === null) delete out.cache_salt;
  else out.cache_salt = salt;
  if (addUsage) out.stream_options = { ...(body.stream_options as object), include_usage: true };
  return out;
}

/** A salted call's prefix hash keyed by its tenant too: its prefixes live on replicas of their own choosing, not another tenant's. */
export function saltedPrefix(prefix: number | null, salt: string | null): number | null {
  if (prefix === null || salt === null) return prefix;
  let h = prefix;
  for (let i = 0; i < salt.length; i++) h = Math.imul(h ^ salt.charCodeAt(i), 16777619);
  return h >>> 0;
}
