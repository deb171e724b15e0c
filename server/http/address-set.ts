import net from "node:net";

/**
 * A set of addresses given as CIDR ranges, the one parser of Kule's address settings: the proxies
 * whose X-Forwarded-For is believed (KULE_TRUSTED_PROXIES) and the private ranges outbound calls
 * may reach (KULE_OUTBOUND_ALLOW). IPv4-mapped IPv6 addresses count as the IPv4 address they carry.
 */
export class AddressSet {
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

  has(address: string): boolean {
    const a = plainAddress(address);
    return net.isIP(a) !== 0 && this.list.check(a, net.isIPv6(a) ? "ipv6" : "ipv4");
  }
}

/** The ranges of a comma-separated setting such as "10.0.0.0/8,127.0.0.1". */
export const cidrsOf = (setting: string | undefined): string[] => (setting ?? "").split(",").map((s) => s.trim()).filter(Boolean);

/**
 * An IPv4 address carried in IPv6 as ::ffff:a.b.c.d (a dual-stack socket's peer) or ::ffff:a9fe:a9fe
 * (how a URL writes [::ffff:169.254.169.254]) is that IPv4 address; any other address is itself.
 */
export function plainAddress(address: string): string {
  // Most addresses are plain already: the gateway asks this of every request's peer.
  if (address.charCodeAt(0) !== 91 && !address.startsWith("::")) return address;
  const a = address.replace(/^\[|\]$/g, "").toLowerCase();
  if (!a.startsWith("::ffff:")) return a;
  const rest = a.slice(7);
  if (net.isIPv4(rest)) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(rest);
  if (!hex) return a;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}
