import { describe, expect, it } from "vitest";
import { Prisma } from "../db/generated/client.ts";
import { allocateKurus, PLATFORM, proratedMonthly, shareBill, spreadWeights, type BillInput, type SpreadRule } from "./allocation.ts";

const D = Prisma.Decimal;
const sum = (m: Map<string, Prisma.Decimal>) => [...m.values()].reduce((s, v) => s.add(v), new D(0));
const w = (o: Record<string, number | string>) => new Map(Object.entries(o).map(([k, v]) => [k, new D(v)]));

describe("allocateKurus", () => {
  it("shares 100 TRY three ways to the kuruş: the leftover kuruş goes to the largest fraction", () => {
    const out = allocateKurus(new D(100), w({ a: 1, b: 1, c: 1 }));
    expect([...out.values()].map(String)).toEqual(["33.34", "33.33", "33.33"]);
    expect(sum(out).toFixed(2)).toBe("100.00");
  });

  it("follows the weights, and a weightless key gets nothing", () => {
    const out = allocateKurus(new D("10.01"), w({ a: 3, b: 1, z: 0 }));
    expect(out.get("a")!.toFixed(2)).toBe("7.51");
    expect(out.get("b")!.toFixed(2)).toBe("2.50");
    expect(out.get("z")!.toFixed(2)).toBe("0.00");
  });

  it("gives the whole to the platform when nobody has a weight", () => {
    const out = allocateKurus(new D("12.345"), w({ a: 0 }));
    expect(out.get(PLATFORM)!.toFixed(2)).toBe("12.35");
    expect(out.get("a")!.toFixed(2)).toBe("0.00");
  });

  it("adds up to the rounded total for awkward totals and many small weights", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const weights = new Map<string, Prisma.Decimal>();
      for (let i = 0; i < 1 + (seed % 17); i++) weights.set(`t${i}`, new D(((seed * 7919 + i * 104729) % 9973) / 7));
      const total = new D((seed * 1234.5678) % 99_999).toDecimalPlaces(6);
      expect(sum(allocateKurus(total, weights)).toFixed(2)).toBe(total.toFixed(2));
    }
  });
});

const use = [
  { tenantId: "bank", gpuHours: new D(30), tokens: 9_000_000n, requests: 900 },
  { tenantId: "retail", gpuHours: new D(10), tokens: 1_000_000n, requests: 100 },
  { tenantId: "health", gpuHours: new D(0), tokens: 0n, requests: 0 },
];

describe("spreadWeights", () => {
  it("by GPU-hours leaves the idle hours' part to the platform", () => {
    const weights = spreadWeights("gpu_hours", use, new D(60));
    const out = allocateKurus(new D(1000), weights);
    expect(out.get("bank")!.toFixed(2)).toBe("300.00");
    expect(out.get("retail")!.toFixed(2)).toBe("100.00");
    expect(out.get(PLATFORM)!.toFixed(2)).toBe("600.00");
  });

  it("by tokens and evenly it all falls on tenants; evenly only on those that called", () => {
    expect(allocateKurus(new D(1000), spreadWeights("tokens", use, new D(60))).get("bank")!.toFixed(2)).toBe("900.00");
    const even = allocateKurus(new D(1000), spreadWeights("even", use, new D(60)));
    expect([even.get("bank"), even.get("retail"), even.get("health"), even.get(PLATFORM)].map((v) => v!.toFixed(2))).toEqual(["500.00", "500.00", "0.00", "0.00"]);
  });
});

describe("shareBill", () => {
  const input = (spread: SpreadRule): BillInput => ({
    metered: { gpu: new D("4321.987654"), energy: new D("123.456789"), storage: new D("9.999999") },
    attributed: new Map([
      ["bank", { gpu: new D("2000.333333"), energy: new D("60.1"), storage: new D("3.333333") }],
      ["retail", { gpu: new D("999.111111"), energy: new D("20.05"), storage: new D("3.333333") }],
      ["health", { gpu: new D(0), energy: new D(0), storage: new D(0) }],
    ]),
    use,
    idleGpuHours: new D("17.5"),
    monthly: { software: { amount: new D("2500.005"), spread }, operations: { amount: new D("777.77"), spread } },
  });

  for (const spread of ["gpu_hours", "tokens", "even"] as const) {
    it(`adds every part up to its total to the kuruş when spreading ${spread}`, () => {
      const parts = shareBill(input(spread));
      expect(parts.map((p) => p.part)).toEqual(["gpu", "energy", "storage", "software", "operations"]);
      for (const p of parts) expect(sum(p.shares).toFixed(2)).toBe(p.total.toFixed(2));
      const whole = parts.reduce((s, p) => s.add(p.total), new D(0));
      const shared = parts.reduce((s, p) => s.add(sum(p.shares)), new D(0));
      expect(shared.toFixed(2)).toBe(whole.toFixed(2));
    });
  }

  it("gives the platform what no tenant used of the metered parts", () => {
    const [gpu] = shareBill(input("even"));
    expect(gpu!.rule).toBe("measured");
    // 432,199 kuruş: floors 200,033 + 99,911 + 132,254 leave one, which goes to bank's .44 (retail .16, platform .39).
    expect(gpu!.shares.get("bank")!.toFixed(2)).toBe("2000.34");
    expect(gpu!.shares.get(PLATFORM)!.toFixed(2)).toBe("1322.54");
  });

  it("leaves out a monthly part the admin has not set", () => {
    const parts = shareBill({ ...input("even"), monthly: { software: null, operations: null } });
    expect(parts.map((p) => p.part)).toEqual(["gpu", "energy", "storage"]);
  });
});

describe("proratedMonthly", () => {
  const m0 = new Date("2026-11-01T00:00:00Z");
  const m1 = new Date("2026-12-01T00:00:00Z");
  it("counts the month to date, each span at the amount then in force", () => {
    const rates = [
      { amount: new D(3000), effectiveFrom: new Date("2026-10-01T00:00:00Z") },
      { amount: new D(6000), effectiveFrom: new Date("2026-11-16T00:00:00Z") },
    ];
    expect(proratedMonthly(rates, m0, m1, m1).toFixed(2)).toBe("4500.00");
    expect(proratedMonthly(rates, m0, m1, new Date("2026-11-11T00:00:00Z")).toFixed(2)).toBe("1000.00");
    expect(proratedMonthly([], m0, m1, m1).toFixed(2)).toBe("0.00");
  });
});
