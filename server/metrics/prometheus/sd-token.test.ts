import { describe, expect, it } from "vitest";
import { bearerMatches } from "./sd-token.ts";

describe("the bearer tokens Prometheus and Alertmanager present", () => {
  const token = "4tP1yW9q-Zr0vQ8c_kX2mN5bJ7hL3dF6";
  it("accepts exactly the token, as a bearer token", () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
  });
  it("refuses another token, a prefix, a longer one, another scheme, none, and an empty configured token", () => {
    for (const h of [`Bearer ${token.slice(0, -1)}x`, `Bearer ${token.slice(0, 8)}`, `Bearer ${token}x`, `Basic ${token}`, token, "", null]) expect(bearerMatches(h, token), String(h)).toBe(false);
    expect(bearerMatches("Bearer ", "")).toBe(false);
  });
});
