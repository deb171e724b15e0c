import { describe, expect, it } from "vitest";
import { loginDelayMs } from "./throttle.ts";

describe("login delay", () => {
  it("is free for the first attempts, then doubles from one second", () => {
    expect([0, 4].map((f) => loginDelayMs(f, 5))).toEqual([0, 0]);
    expect([5, 6, 7].map((f) => loginDelayMs(f, 5))).toEqual([1000, 2000, 4000]);
  });
  it("never makes anyone wait more than five minutes", () => {
    expect(loginDelayMs(60, 5)).toBe(300_000);
  });
});
