import { describe, expect, it } from "vitest";
import { addBuckets, LATENCY_BUCKETS_MS, quantileMs } from "./histogram.ts";

const empty = () => new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0);

describe("latency histograms", () => {
  it("answers percentiles within the bucket, interpolated", () => {
    const b = empty();
    b[2] = 100; // 50–100 ms
    expect(quantileMs(b, 0.5)).toBe(75);
    expect(quantileMs(b, 0.99)).toBeCloseTo(99.5, 5);
  });

  it("splits a percentile across buckets by count", () => {
    const b = empty();
    b[0] = 90; // ≤ 25 ms
    b[7] = 10; // 750–1000 ms
    expect(quantileMs(b, 0.5)).toBeLessThanOrEqual(25);
    expect(quantileMs(b, 0.95)).toBe(875);
  });

  it("says nothing without data, and 'above the last bound' for the open bucket", () => {
    expect(quantileMs(empty(), 0.5)).toBeNull();
    const b = empty();
    b[b.length - 1] = 3;
    expect(quantileMs(b, 0.99)).toBe(60_000);
  });

  it("adds hours together", () => {
    const a = empty();
    a[1] = 2;
    expect(addBuckets([], a)[1]).toBe(2);
    expect(addBuckets(a, a)[1]).toBe(4);
  });
});
