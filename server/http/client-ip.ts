import net from "node:net";
import { AddressSet, cidrsOf, plainAddress } from "./address-set.ts";

/**
 * The one rule for a request's client address, used by the gateway (its call-log rows) and the
 * app (its audit events). `X-Forwarded-For` is believed only from trusted proxies: walking it from
 * the right, each hop added by a trusted proxy is skipped, and the first address a trusted proxy
 * did not vouch for is the client. With no trusted proxies it is never read at all, so a caller
 * cannot choose the address recorded for it.
 */
export class TrustedProxies {
  private readonly set: AddressSet;
  readonly empty: boolean;

  /** `cidrs`: e.g. ["10.0.0.0/8", "127.0.0.1/32", "fd00::/8"]; a bare address means just it. */
  constructor(cidrs: readonly string[]) {
    this.set = new AddressSet(cidrs);
    this.empty = this.set.empty;
  }

  trusts(address: string): boolean {
    return this.set.has(address);
  }

  /** The client's address from the socket's peer and the X-Forwarded-For header it sent. */
  clientIp(socketAddress: string | undefined | null, forwardedFor: string | string[] | undefined | null): string | null {
    if (!socketAddress) return null;
    let client = plainAddress(socketAddress);
    if (this.empty || !forwardedFor || !this.trusts(client)) return client;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor).split(",").map((h) => plainAddress(h.trim()));
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      if (net.isIP(hop) === 0) return client; // a malformed hop: stop at the last proxy we trust
      client = hop;
      if (!this.trusts(hop)) return hop;
    }
    return client;
  }
}

/** The trusted-proxy list of a comma-separated setting, e.g. KULE_TRUSTED_PROXIES. */
export function trustedProxiesOf(setting: string | undefined): TrustedProxies {
  return new TrustedProxies(cidrsOf(setting));
}
