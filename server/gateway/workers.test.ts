import { describe, expect, it } from "vitest";
import { callLogFlushMs, workerCount } from "./workers.ts";

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

  it("has the workers of a gateway send PostgreSQL as many call-log batches a second as one process", () => {
    expect(callLogFlushMs(1)).toBe(100);
    expect(callLogFlushMs(2)).toBe(200);
    expect(callLogFlushMs(4)).toBe(400);
    // batches a second: n workers, each cutting 1000 / flushMs times a second
    expect([1, 2, 4].map((n) => n * (1000 / callLogFlushMs(n)))).toEqual([10, 10, 10]);
  });
});
