import { describe, expect, it } from "vitest";
import { Prisma } from "../db/generated/client.ts";
import { migShare, splitHourCost, type Device, type Holding } from "./cost.ts";

const D = Prisma.Decimal;
const H = 3_600_000;
const t0 = Date.UTC(2026, 11, 2, 10);

describe("infrastructure cost of an hour", () => {
  it("counts a MIG instance as its compute slices out of 7", () => {
    expect(migShare("3g.40gb").toString()).toBe(new D(3).div(7).toString());
    expect(migShare("1g.10gb").mul(7).toNumber()).toBe(1);
    expect(() => migShare("whole")).toThrow("not a MIG profile");
  });

  it("charges an endpoint its GPU time and leaves the rest idle", () => {
    const devices: Device[] = [{ id: "g1", kind: "gpu", perHour: new D(70) }, { id: "g2", kind: "gpu", perHour: new D(70) }];
    const holdings: Holding[] = [
      { endpointId: "chat", deviceId: "g1", kind: "gpu", share: new D(1), from: t0 - H, to: t0 + 2 * H },
      // A 3g MIG instance on g2 for half the hour.
      { endpointId: "vision", deviceId: "g2", kind: "gpu", share: migShare("3g.40gb"), from: t0 + H / 2, to: t0 + 5 * H },
    ];
    const { byEndpoint, idle } = splitHourCost(t0, devices, holdings);
    expect(byEndpoint.get("chat")!.cost.toNumber()).toBe(70);
    expect(byEndpoint.get("vision")!.cost.toFixed(6)).toBe(new D(70).mul(3).div(7).div(2).toFixed(6)); // 15 TRY
    // Everything that was not held is idle, and the parts add up to the fleet's hour.
    expect(idle.cost.add(byEndpoint.get("chat")!.cost).add(byEndpoint.get("vision")!.cost).toFixed(6)).toBe("140.000000");
  });

  it("shares a GPU's energy as its time: a MIG instance by its slices, the rest idle", () => {
    // 0.7 kWh in the hour at 4 TRY × PUE 1.5 = 4.2 TRY.
    const devices: Device[] = [{ id: "g1", kind: "gpu", perHour: new D(70), energy: { kwh: new D("0.7"), cost: new D("4.2") } }];
    const holdings: Holding[] = [{ endpointId: "vision", deviceId: "g1", kind: "gpu", share: migShare("2g.20gb"), from: t0, to: t0 + H }];
    const { byEndpoint, idle } = splitHourCost(t0, devices, holdings);
    expect(byEndpoint.get("vision")!.energyKwh.toFixed(6)).toBe("0.200000");
    expect(byEndpoint.get("vision")!.energyCost.toFixed(6)).toBe("1.200000");
    expect(idle.energyKwh.toFixed(6)).toBe("0.500000");
    expect(idle.energyCost.add(byEndpoint.get("vision")!.energyCost).toFixed(6)).toBe("4.200000");
  });

  it("splits a CPU node between the replicas on it by their time there", () => {
    const devices: Device[] = [{ id: "n1", kind: "cpu", perHour: new D(12) }];
    const holdings: Holding[] = [
      { endpointId: "a", deviceId: "n1", kind: "cpu", share: new D(1), from: t0, to: t0 + H },
      { endpointId: "b", deviceId: "n1", kind: "cpu", share: new D(1), from: t0, to: t0 + H / 2 },
    ];
    const { byEndpoint, idle } = splitHourCost(t0, devices, holdings);
    expect(byEndpoint.get("a")!.cost.toFixed(6)).toBe("8.000000");
    expect(byEndpoint.get("b")!.cost.toFixed(6)).toBe("4.000000");
    expect(idle.cost.toNumber()).toBe(0);
  });

  it("ignores holdings outside the hour", () => {
    const { byEndpoint, idle } = splitHourCost(t0, [{ id: "g", kind: "gpu", perHour: new D(10) }], [{ endpointId: "x", deviceId: "g", kind: "gpu", share: new D(1), from: t0 - 2 * H, to: t0 }]);
    expect(byEndpoint.size).toBe(0);
    expect(idle.cost.toNumber()).toBe(10);
  });
});
