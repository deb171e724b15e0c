import { describe, expect, it } from "vitest";
import { formatGB, formatParams, gbToBytes } from "./format.ts";

describe("formatting", () => {
  it("speaks of parameters the way the field does", () => {
    expect(formatParams(8_030_000_000n)).toBe("8.03 B");
    expect(formatParams(68_200_000)).toBe("68.2 M");
  });
  it("turns GB typed by a person into whole bytes, refusing nonsense", () => {
    expect(gbToBytes("8.03")).toBe("8030000000");
    expect(gbToBytes("abc")).toBeNull();
    expect(gbToBytes("-1")).toBeNull();
    expect(formatGB(80_000_000_000n)).toBe("80.0 GB");
  });
});
