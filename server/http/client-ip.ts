import net from "node:net";

/**
 * The one rule for a request's client address, used by the gateway (its call-log rows) and the
 * app (its audit events). `X-Forwarded-For` is believed only from trusted proxies: walking it from
 * the right, each hop added by a trusted proxy is skipped, and the first address a trusted proxy
 * did not vouch for is the client. With no trusted proxies it is never read at all, so a caller
 * cannot choose the address recorded for it.
 */
export class TrustedProxies {
  private readonly list = new net.BlockList();
  readonly empty: boolean;

  /** `cidrs`: e.g. ["10.0.0.0/8", "127.0.0.1/32", "fd00::/8"]; a bare address means just it. */
  constructor(cidrs: readonly string[]) {
    for (const c of cidrs) {
      const [addr, bits] = c.split("/") as [string, string | undefined];
      const type = net.isIPv6(addr) ? "ipv6" : "ipv4";
      if (!net.isIP(addr)) throw new Error(`Not an address or CIDR range: ${c}`);
      const prefix = bits === undefined ? (type === "ipv6" ? 128 : 32) : Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (type === "ipv6" ? 128 : 32)) throw new Error(`Not a CIDR prefix length: ${c}`);
      this.list.addSubnet(addr, prefix, type);
    }
    this.empty = cidrs.length === 0;
  }

  trusts(address: string): boolean {
    const a = plain(address);
    return net.isIP(a) !== 0 && this.list.check(a, net.isIPv6(a) ? "ipv6" : "ipv4");
  }

  /** The client's address from the socket's peer and the X-Forwarded-For header it sent. */
  clientIp(socketAddress: string | undefined | null, forwardedFor: string | string[] | undefined | null): string | null {
    if (!socketAddress) return null;
    let client = plain(socketAddress);
    if (this.empty || !forwardedFor || !this.trusts(client)) return client;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor).split(",").map((h) => plain(h.trim()));
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      if (net.isIP(hop) === 0) return client; // a malformed hop: stop at the last proxy we trust
      client = hop;
      if (!this.trusts(hop)) return hop;
    }
    return client;
  }
}

/** An IPv4 peer on a dual-stack socket comes as ::ffff:a.b.c.d; record it as a.b.c.d. */
function plain(address: string): string {
  return address.startsWith("::ffff:") && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}

/** The trusted-proxy list of a comma-separated setting, e.g. KULE_TRUSTED_PROXIES. */
export function trustedProxiesOf(setting: string | undefined): TrustedProxies {
  return new TrustedProxies((setting ?? "").split(",").map((s) => s.trim()).filter(Boolean));
}
