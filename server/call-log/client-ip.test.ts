import { describe, expect, it } from "vitest";
import { maskIp } from "./client-ip.ts";

describe("maskIp", () => {
  it("keeps the network an address came from, never the host", () => {
    expect(maskIp("10.1.22.199")).toBe("10.1.22.0/24");
    expect(maskIp("::ffff:85.105.3.7")).toBe("85.105.3.0/24");
    expect(maskIp("2a02:e0:1234:5678::9")).toBe("2a02:e0:1234::/48");
    expect(maskIp("2001:db8::1")).toBe("2001:db8:0::/48");
    expect(maskIp(null)).toBeNull();
  });
});
