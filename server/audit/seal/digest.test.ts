import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { EMPTY_DIGEST, EMPTY_HOUR, segmentHash } from "./digest.ts";
import { adjustmentsSha256, expectedNow, isCurrentScheme, type Adjustment } from "./adjustments.ts";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const hour = (lines: string[]) => ({ count: lines.length, digest: sha(lines.map((l) => `${l}\n`).join("")) });
const rows = ["a\t1", "b\t2", "c\t3", "d\t4"];
const adj = (before: { count: number; digest: string }, after: { count: number; digest: string }): Adjustment => ({
  start: "2026-11-03T10:00:00.000Z",
  beforeCount: before.count,
  beforeDigest: before.digest,
  afterCount: after.count,
  afterDigest: after.digest,
});

describe("the hour digest", () => {
  it("of an hour without rows is SHA-256 of nothing", () => {
    expect(EMPTY_DIGEST).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(EMPTY_HOUR).toEqual({ count: 0, digest: EMPTY_DIGEST });
  });

  it("links each segment to the previous one", () => {
    const start = new Date("2026-11-03T10:00:00Z");
    const d = hour(rows).digest;
    const a = segmentHash("0".repeat(64), "call_log", start, 4, d);
    expect(segmentHash("1".repeat(64), "call_log", start, 4, d)).not.toBe(a);
    expect(segmentHash("0".repeat(64), "call_log", start, 5, d)).not.toBe(a);
    expect(segmentHash("0".repeat(64), "audit_event", start, 4, d)).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("what an hour must hash to after destructions", () => {
  const sealed = hour(rows);
  const afterDelete = hour(rows.slice(0, 2));
  const afterAnon = hour([...rows.slice(0, 2), "c\t-", "d\t-"]);

  it("is the seal itself when nothing was destroyed", () => {
    expect(expectedNow(sealed, [])).toEqual({ ...sealed, broken: null });
  });

  it("follows each destruction in turn from the state it found to the state it left", () => {
    expect(expectedNow(sealed, [adj(sealed, afterAnon)])).toEqual({ ...afterAnon, broken: null });
    expect(expectedNow(sealed, [adj(sealed, afterAnon), adj(afterAnon, afterDelete)])).toEqual({ ...afterDelete, broken: null });
  });

  it("does not let a destruction launder rows changed before it ran", () => {
    const forged = hour(["a\t1", "b\t2", "c\t3", "d\t999"]);
    const laundering = adj(forged, afterDelete);
    expect(expectedNow(sealed, [laundering])).toEqual({ ...sealed, broken: laundering });
    // Out of order is no better: the second finds a state the first had not left.
    expect(expectedNow(sealed, [adj(afterAnon, afterDelete), adj(sealed, afterAnon)]).broken).not.toBeNull();
  });

  it("seals the adjustments' exact values, and knows the earlier additive form when it sees it", () => {
    const a = adj(sealed, afterDelete);
    expect(adjustmentsSha256([a])).toBe(adjustmentsSha256([{ ...a }]));
    expect(adjustmentsSha256([{ ...a, afterCount: 3 }])).not.toBe(adjustmentsSha256([a]));
    expect(isCurrentScheme([a])).toBe(true);
    expect(isCurrentScheme([{ start: a.start, removedCount: 2, removedDigest: "0", addedCount: 0, addedDigest: "0" }])).toBe(false);
  });
});
