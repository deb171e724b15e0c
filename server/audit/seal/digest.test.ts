import { describe, expect, it } from "vitest";
import { EMPTY_DIGEST, Multiset, combine, segmentHash } from "./digest.ts";

const rows = ["a\t1", "b\t2", "c\t3", "d\t4"].map((s) => Buffer.from(s));
const digestOf = (lines: Buffer[]) => {
  const m = new Multiset();
  lines.forEach((l) => m.addLine(l));
  return m.hex();
};

describe("the multiset digest", () => {
  it("does not depend on row order, and any changed byte changes it", () => {
    expect(digestOf(rows)).toBe(digestOf([...rows].reverse()));
    expect(digestOf([...rows.slice(0, 3), Buffer.from("d\t5")])).not.toBe(digestOf(rows));
  });

  it("subtracts what was removed and adds what replaced it", () => {
    const all = digestOf(rows);
    expect(combine(all, EMPTY_DIGEST, digestOf(rows.slice(2)))).toBe(digestOf(rows.slice(0, 2)));
    const anon = [Buffer.from("c\t-"), Buffer.from("d\t-")];
    expect(combine(all, digestOf(anon), digestOf(rows.slice(2)))).toBe(digestOf([...rows.slice(0, 2), ...anon]));
    expect(combine(all, EMPTY_DIGEST, all)).toBe(EMPTY_DIGEST);
  });

  it("counts a duplicated row twice (an inserted copy is not invisible)", () => {
    expect(digestOf([...rows, rows[0]!])).not.toBe(digestOf(rows));
  });

  it("links each segment to the previous one", () => {
    const start = new Date("2026-11-03T10:00:00Z");
    const a = segmentHash("0".repeat(64), "call_log", start, 4, digestOf(rows));
    expect(segmentHash("1".repeat(64), "call_log", start, 4, digestOf(rows))).not.toBe(a);
    expect(segmentHash("0".repeat(64), "call_log", start, 5, digestOf(rows))).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});
