import { describe, expect, it } from "vitest";
import { workerCount } from "./workers.ts";

describe("how many gateway workers run", () => {
  it("runs one without Redis, one per core with it, or what is asked", () => {
    expect(workerCount(undefined, false, 8)).toBe(1);
    expect(workerCount(undefined, true, 8)).toBe(8);
    expect(workerCount(3, true, 8)).toBe(3);
    expect(workerCount(1, false, 8)).toBe(1);
  });

  it("refuses several without Redis: each would keep its own limits", () => {
    expect(() => workerCount(2, false, 8)).toThrow(/KULE_GATEWAY_WORKERS=2 needs REDIS_URL/);
  });
});
