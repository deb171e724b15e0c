import dns from "node:dns";
import net from "node:net";
import { env, type Env } from "../env.ts";
import { InvalidInputError } from "../errors.ts";
import { AddressSet, cidrsOf, plainAddress } from "./address-set.ts";

/**
 * Where Kule may send a request to a URL an operator typed (an external replica and its metrics, an
 * alert receiver, the identity provider's endpoints): the one rule against server-side request
 * forgery. Without it an operator's form could make the app, the gateway, Prometheus or Alertmanager
 * call cloud metadata (credentials at 169.254.169.254), PostgreSQL or the gateway's admin port.
 */

/** Never called, whatever KULE_OUTBOUND_ALLOW says: link-local (cloud metadata), "this network", multicast, broadcast, and the IPv6 and Alibaba metadata addresses. */
const NEVER = new AddressSet(["169.254.0.0/16", "fe80::/10", "0.0.0.0/8", "::/128", "224.0.0.0/4", "ff00::/8", "255.255.255.255/32", "fd00:ec2::254/128", "100.100.100.200/32"]);
/** Called only when KULE_OUTBOUND_ALLOW names them: this host, and the networks a site keeps private. */
const PRIVATE = new AddressSet(["127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "198.18.0.0/15", "fc00::/7"]);
const LOOPBACK = new AddressSet(["127.0.0.0/8", "::1/128"]);

export interface OutboundPolicy {
  /** The private ranges the site allows (KULE_OUTBOUND_ALLOW). */
  allow: AddressSet;
  /** Kule's own listeners on this host, by port: refused on loopback even when loopback is allowed. */
  ownPorts: ReadonlyMap<number, string>;
}

const portOf = (url: string | undefined, fallback: number) => {
  if (!url) return fallback;
  try {
    return Number(new URL(url).port) || fallback;
  } catch {
    return fallback;
  }
};

/** The policy of a configuration: its allow list, and the ports its own services listen on. */
export function outboundPolicy(e: Env = env): OutboundPolicy {
  const own = new Map<number, string>([
    [portOf(e.DATABASE_URL, 5432), "PostgreSQL"],
    [e.KULE_EMBEDDED_PG_PORT, "embedded PostgreSQL"],
    [portOf(e.REDIS_URL, 6379), "Redis"],
    [e.PORT, "app"],
    [e.KULE_GATEWAY_PORT, "gateway"],
    [e.KULE_GATEWAY_ADMIN_PORT ?? e.KULE_GATEWAY_PORT + 1000, "gateway admin listener"],
    [e.KULE_PROMETHEUS_PORT, "Prometheus"],
    [e.KULE_ALERTMANAGER_PORT, "Alertmanager"],
    [e.KULE_SIM_PORT, "simulator control API"],
  ]);
  if (e.KULE_GATEWAY_GRPC_PORT) own.set(e.KULE_GATEWAY_GRPC_PORT, "gateway gRPC listener");
  return { allow: new AddressSet(cidrsOf(e.KULE_OUTBOUND_ALLOW)), ownPorts: own };
}

let current: OutboundPolicy | null = null;
/** This process's policy, from its environment. */
export const appOutboundPolicy = () => (current ??= outboundPolicy());

export type Refusal = { kind: "never"; address: string } | { kind: "private"; address: string } | { kind: "own"; address: string; port: number; service: string };

/** Why a call to address:port is refused, or null when it may go. */
export function outboundRefusal(address: string, port: number, policy: OutboundPolicy): Refusal | null {
  const a = plainAddress(address);
  if (NEVER.has(a)) return { kind: "never", address: a };
  if (PRIVATE.has(a) && !policy.allow.has(a)) return { kind: "private", address: a };
  const service = LOOPBACK.has(a) ? policy.ownPorts.get(port) : undefined;
  return service ? { kind: "own", address: a, port, service } : null;
}

/** The refusal as the operator reads it: what the address is and, where a setting allows it, which. */
export function refusalSentence(host: string, r: Refusal): string {
  if (r.kind === "never") return `${host} is ${r.address}, a link-local, multicast or unspecified address (cloud metadata answers at 169.254.169.254): Kule never calls it.`;
  if (r.kind === "private") return `${host} is ${r.address}, on this host or a private network: Kule calls those only when KULE_OUTBOUND_ALLOW names them, e.g. KULE_OUTBOUND_ALLOW=10.0.0.0/8.`;
  return `${host} is Kule's own ${r.service} (port ${r.port} on this host): Kule never sends an operator's request there.`;
}

export const defaultPort = (u: URL) => Number(u.port) || (u.protocol === "https:" ? 443 : 80);

/** The addresses a host name has now; none when it does not resolve (the call then fails on its own). */
async function addressesOf(host: string): Promise<string[]> {
  if (net.isIP(plainAddress(host))) return [host];
  try {
    const found = await dns.promises.lookup(host, { all: true, verbatim: true });
    return found.map((f) => f.address);
  } catch {
    return [];
  }
}

/**
 * Refuses a URL an operator entered unless it is http(s) to an address the policy lets Kule call,
 * with a 400 naming `field`. Every address the name resolves to is checked; the calls Kule itself
 * makes check again when they connect (`guardedLookup`), as DNS may answer differently later.
 */
export async function checkOutboundUrl(raw: string, field: string, policy: OutboundPolicy = appOutboundPolicy()): Promise<void> {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new InvalidInputError(field, `Not a URL: ${raw}`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new InvalidInputError(field, `Kule calls http:// and https:// URLs only, not ${u.protocol}`);
  await checkOutboundHost(u.hostname, defaultPort(u), field, policy);
}

/** The same for a host and port reached by another protocol (an alert receiver's SMTP server). */
export async function checkOutboundHost(host: string, port: number, field: string, policy: OutboundPolicy = appOutboundPolicy()): Promise<void> {
  for (const address of await addressesOf(host)) {
    const refused = outboundRefusal(address, port, policy);
    if (refused) throw new InvalidInputError(field, refusalSentence(host, refused));
  }
}

/** undici's `connect` options for calls to `url`: the address its name resolves to is checked on every new connection. */
export function guardedConnect(url: string, policy: OutboundPolicy = appOutboundPolicy()): { lookup: net.LookupFunction } {
  return { lookup: guardedLookup(policy, defaultPort(new URL(url))) };
}

/**
 * A `lookup` for net.connect (and undici's `connect` option) that refuses, at connect time, an
 * address the policy forbids: a name that resolved to a public address when it was saved and to
 * 169.254.169.254 now (DNS rebinding) is stopped here. Names only: IP literals skip lookup, so
 * callers check those once with `outboundRefusal`.
 */
export function guardedLookup(policy: OutboundPolicy, port: number): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return void callback(err, "", 0);
      const list = addresses as dns.LookupAddress[];
      for (const a of list) {
        const refused = outboundRefusal(a.address, port, policy);
        if (refused) return void callback(Object.assign(new Error(refusalSentence(hostname, refused)), { code: "EKULEREFUSED" }), "", 0);
      }
      if (options.all) return void (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/**
 * `fetch` for a library that brings its own calls (next-auth's discovery and token requests, jose's
 * key set): each URL is checked before the call and no redirect is followed, so a discovery
 * document naming a metadata or private address cannot lead Kule there.
 */
export function outboundFetch(field: string, policy: OutboundPolicy = appOutboundPolicy()): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    await checkOutboundUrl(url, field, policy);
    return fetch(input, { ...init, redirect: "error" });
  };
}
