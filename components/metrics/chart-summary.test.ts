import { describe, expect, it } from "vitest";
import { summarise } from "./chart-summary";

describe("summarise", () => {
  it("gives each series its latest value, range and mean, skipping gaps", () => {
    const rows = [
      { t: 1000, a: 2, b: null },
      { t: 2000, a: null, b: 5 },
      { t: 3000, a: 6, b: null },
      { t: 4000, a: null, b: null },
    ];
    expect(summarise(rows, ["a", "b"])).toEqual([
      { series: "a", latest: 6, latestAt: 3000, min: 2, max: 6, mean: 4, samples: 2 },
      { series: "b", latest: 5, latestAt: 2000, min: 5, max: 5, mean: 5, samples: 1 },
    ]);
  });

  it("says a series without any sample has no figures, never zero", () => {
    expect(summarise([{ t: 1, a: null }], ["a"])[0]).toMatchObject({ latest: null, min: null, max: null, mean: null, samples: 0 });
  });
});
