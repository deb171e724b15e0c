import { describe, expect, it } from "vitest";
import { TrustedProxies, trustedProxiesOf } from "./client-ip.ts";

describe("the client's address", () => {
  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    const none = trustedProxiesOf(undefined);
    expect(none.clientIp("203.0.113.9", "6.6.6.6")).toBe("203.0.113.9");
    expect(none.clientIp("::ffff:127.0.0.1", "6.6.6.6, 7.7.7.7")).toBe("127.0.0.1");
  });

  it("is the right-most hop no trusted proxy vouched for", () => {
    const lb = new TrustedProxies(["10.0.0.0/8", "127.0.0.1"]);
    // client → 10.1.2.3 (a trusted load balancer) → us; the spoofed left-most entry is never read.
    expect(lb.clientIp("10.1.2.3", "6.6.6.6, 198.51.100.7")).toBe("198.51.100.7");
    expect(lb.clientIp("127.0.0.1", "198.51.100.7, 10.9.9.9")).toBe("198.51.100.7");
    // A header sent by an untrusted peer is ignored.
    expect(lb.clientIp("198.51.100.7", "10.0.0.1")).toBe("198.51.100.7");
    // Every hop trusted: the left-most one is as far as the chain goes.
    expect(lb.clientIp("10.0.0.2", "10.0.0.1")).toBe("10.0.0.1");
    // A malformed hop stops the walk at the last trusted proxy.
    expect(lb.clientIp("10.0.0.2", "198.51.100.7, garbage")).toBe("10.0.0.2");
    expect(lb.clientIp("10.0.0.2", undefined)).toBe("10.0.0.2");
  });

  it("understands IPv6 ranges and refuses a malformed setting", () => {
    expect(new TrustedProxies(["fd00::/8"]).clientIp("fd00::1", "2001:db8::5")).toBe("2001:db8::5");
    expect(() => new TrustedProxies(["10.0.0.0/40"])).toThrow(/CIDR prefix/);
    expect(() => new TrustedProxies(["example.com"])).toThrow(/Not an address/);
  });
});
