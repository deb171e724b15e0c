import { describe, expect, it } from "vitest";
import { canonicalPlacement, fromMigParted, inexpressible, inferLayouts, parseMigParted, dumpMigParted, toMigParted } from "./mig-plan.ts";

describe("what a MIG manager can lay out", () => {
  it("places instances as the manager does: largest first, lowest free slot", () => {
    expect(canonicalPlacement(80, { "1g.10gb": 1, "4g.40gb": 1, "2g.20gb": 1 })).toEqual([
      { profile: "4g.40gb", startSlot: 0 },
      { profile: "2g.20gb", startSlot: 4 },
      { profile: "1g.10gb", startSlot: 6 },
    ]);
    expect(canonicalPlacement(80, { "7g.80gb": 1, "1g.10gb": 1 })).toBeNull();
    expect(canonicalPlacement(80, { "5g.50gb": 1 })).toBeNull();
  });

  it("accepts a layout only where its slots are the manager's, and says which slots it would use", () => {
    expect(inexpressible(80, [{ profile: "3g.40gb", startSlot: 0 }, { profile: "3g.40gb", startSlot: 4 }])).toBeNull();
    expect(inexpressible(80, [])).toBeNull();
    expect(inexpressible(80, [{ profile: "1g.10gb", startSlot: 3 }])).toMatch(/would lay these out as 1g\.10gb@0, not 1g\.10gb@3/);
  });

  it("writes a node's layouts as a mig-parted entry and reads them back", () => {
    const layouts = [[], [{ profile: "3g.40gb", startSlot: 0 }, { profile: "3g.40gb", startSlot: 4 }], [], [{ profile: "3g.40gb", startSlot: 0 }, { profile: "3g.40gb", startSlot: 4 }]];
    const groups = toMigParted(layouts);
    expect(groups).toEqual([
      { devices: [0, 2], "mig-enabled": false },
      { devices: [1, 3], "mig-enabled": true, "mig-devices": { "3g.40gb": 2 } },
    ]);
    const text = dumpMigParted({ version: "v1", "mig-configs": { mine: groups } });
    expect(fromMigParted(parseMigParted(text)["mig-configs"].mine!, 4, 80)).toEqual(layouts);
    expect(fromMigParted([{ devices: "all", "mig-enabled": true, "mig-devices": { "1g.10gb": 7 } }], 2, 80)[1]).toHaveLength(7);
  });

  it("spreads advertised instances over the node's MIG GPUs when the config behind them is unknown", () => {
    const layouts = inferLayouts(4, 2, { "3g.40gb": 2, "1g.10gb": 3 }, 80);
    expect(layouts.slice(0, 2)).toEqual([[], []]);
    expect(layouts.flat().filter((m) => m.profile === "3g.40gb")).toHaveLength(2);
    expect(layouts.flat().filter((m) => m.profile === "1g.10gb")).toHaveLength(3);
  });
});
