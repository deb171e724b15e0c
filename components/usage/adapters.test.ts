import { describe, expect, it } from "vitest";
import { costRows, formatMoney, recentMonths, tokenRows, usageRows, type UsagePoint } from "./adapters.ts";

const series: UsagePoint[] = [
  { t: 1, values: { chat: { requests: 3, input: 30, output: 60 } } },
  { t: 2, values: { chat: { requests: 1, input: 10, output: 5 }, embed: { requests: 7, input: 70, output: 0 } } },
];

describe("usage chart adapters", () => {
  it("fills every series in every bucket, a bucket without calls being a real zero", () => {
    expect(usageRows(series, ["chat", "embed"], "requests")).toEqual([{ t: 1, chat: 3, embed: 0 }, { t: 2, chat: 1, embed: 7 }]);
    expect(usageRows(series, ["chat", "embed"], "tokens")).toEqual([{ t: 1, chat: 90, embed: 0 }, { t: 2, chat: 15, embed: 70 }]);
  });
  it("adds input and output tokens over all series", () => {
    expect(tokenRows(series)).toEqual([{ t: 1, input: 30, output: 60 }, { t: 2, input: 80, output: 5 }]);
  });
  it("shapes cost by day and months for invoices", () => {
    expect(costRows([{ day: "2026-12-01", amount: "12.50" }])).toEqual([{ day: "12-01", amount: 12.5 }]);
    expect(recentMonths(new Date("2026-02-10T00:00:00Z"), 3)).toEqual(["2026-02", "2026-01", "2025-12"]);
    expect(formatMoney("1234.5", "TRY")).toBe("1.234,50 TRY");
    expect(formatMoney(null, "TRY")).toBe("—");
  });
});
