import { describe, expect, it } from "vitest";
import { csvLine, csvText } from "./csv.ts";

describe("CSV cells against formula injection", () => {
  it("writes a text cell a spreadsheet would run as a formula with a quote before it", () => {
    for (const evil of ["=HYPERLINK(\"http://evil.test\",\"click\")", "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"]) {
      expect(csvText(evil)).toBe(`'${evil}`);
    }
  });

  it("quotes a value that starts with a quote too, so dropping one leading quote always gives the value back", () => {
    expect(csvText("'=1")).toBe("''=1");
    for (const v of ["'=1", "=1", "'", "plain", "Şirket"]) {
      const cell = csvText(v);
      expect(cell.startsWith("'") ? cell.slice(1) : cell).toBe(v);
    }
  });

  it("leaves ordinary names and ids alone, and writes figures as numbers, negative ones included", () => {
    expect(csvText("Anadolu Bank")).toBe("Anadolu Bank");
    expect(csvText("")).toBe("");
    expect(csvLine(["=SUM(A1)", { number: "-12.50" }, { number: 2000000n }, "a,\"b\""])).toBe(`'=SUM(A1),-12.50,2000000,"a,""b"""`);
  });
});
