import { describe, expect, it } from "vitest";
import { DEFAULT_PLACEMENT, WorkerLoads, placeConnection, sheddingPlan } from "./placement.ts";

const w = (slot: number, utilization: number, connections = 0) => ({ slot, utilization, connections });

describe("where the primary sends a new connection", () => {
  it("packs connections into the lowest slot while it has room", () => {
    expect(placeConnection([w(1, 0), w(0, 0.3, 200)])).toBe(0);
    expect(placeConnection([w(0, 0.49, 500), w(1, 0)])).toBe(0);
  });

  it("goes to the next slot with room once the first is busy", () => {
    expect(placeConnection([w(0, 0.6, 300), w(1, 0.1, 4), w(2, 0)])).toBe(1);
  });

  it("goes to the least busy worker when none has room, fewest connections breaking a tie", () => {
    expect(placeConnection([w(0, 0.9), w(1, 0.7), w(2, 0.8)])).toBe(1);
    expect(placeConnection([w(0, 0.9, 10), w(1, 0.9, 3)])).toBe(1);
  });

  it("spreads evenly with packing off, and has nowhere to go without a ready worker", () => {
    const book = new WorkerLoads({ ...DEFAULT_PLACEMENT, packBelow: 0 });
    book.ready(0);
    book.ready(1);
    const slots = Array.from({ length: 6 }, () => book.place());
    expect(slots).toEqual([0, 1, 0, 1, 0, 1]);
    // However unequally idle the loops are: connections decide.
    book.report(0, 0.001, 3);
    book.report(1, 0.002, 5);
    expect([book.place(), book.place(), book.place(), book.place()]).toEqual([0, 0, 0, 1]);
    // A report that has not yet seen the last handovers still counts them: slot 0 was sent 6
    // and received 3 (and holds those 3), slot 1 was sent 4 and holds them all.
    book.report(0, 0.001, 3, 3);
    book.report(1, 0.002, 4, 4);
    expect([book.place(), book.place(), book.place()]).toEqual([1, 1, 0]);
    expect(placeConnection([])).toBeNull();
    expect(new WorkerLoads().place()).toBeNull();
  });

  it("packs a burst that arrives between two reports into one worker, but for a trickle that keeps the others warm", () => {
    const book = new WorkerLoads();
    for (const slot of [0, 1, 2]) book.ready(slot);
    const slots = Array.from({ length: 256 }, () => book.place());
    const count = (slot: number) => slots.filter((s) => s === slot).length;
    expect([count(0), count(1), count(2)]).toEqual([256 - 16, 8, 8]);
    expect(slots[15]).toBe(1);
    expect(slots[31]).toBe(2);
  });
});

describe("when a busy worker lets keep-alive connections go", () => {
  it("sheds a tenth of its connections while another worker has room", () => {
    expect(sheddingPlan([w(0, 0.9, 200), w(1, 0.1, 0)])).toEqual(new Map([[0, 20]]));
    expect(sheddingPlan([w(0, 0.9, 5), w(1, 0.2, 1)])).toEqual(new Map([[0, 1]]));
  });

  it("sheds nothing when every worker is busy, when none is over the mark, or from a single connection", () => {
    expect(sheddingPlan([w(0, 0.9, 200), w(1, 0.85, 200)]).size).toBe(0);
    expect(sheddingPlan([w(0, 0.8, 200), w(1, 0, 0)]).size).toBe(0);
    expect(sheddingPlan([w(0, 0.99, 1), w(1, 0, 0)]).size).toBe(0);
  });

  /** Reports of a worker until it stops asking anything of the book: how many it took to shed, and how many. */
  const reportsUntilShed = (book: WorkerLoads, slot: number, utilization: number, connections: number) => {
    for (let n = 1; n <= 20; n++) {
      const shed = book.report(slot, utilization, connections);
      if (shed) return { reports: n, shed };
    }
    return null;
  };

  it("sheds after about three seconds near saturation, not on a busy report or two, and then every two seconds", () => {
    const book = new WorkerLoads();
    book.ready(0);
    book.ready(1);
    for (let i = 0; i < 10; i++) expect(book.report(0, 0.4, 100)).toBe(0);
    // A stall of the host: one report at full load, then back to normal.
    expect(book.report(0, 1, 100)).toBe(0);
    expect(book.report(0, 0.4, 100)).toBe(0);
    // A second-long stall: four busy reports, still nothing.
    for (let i = 0; i < 4; i++) expect(book.report(0, 1, 100)).toBe(0);
    for (let i = 0; i < 10; i++) book.report(0, 0.4, 100);
    // Saturated for real: over the mark from the fifth report (1.25 s) on, shedding at the twelfth (3 s),
    // then again two seconds later.
    expect(reportsUntilShed(book, 0, 1, 100)).toEqual({ reports: 12, shed: 10 });
    expect(reportsUntilShed(book, 0, 1, 100)).toEqual({ reports: 8, shed: 10 });
    book.gone(1);
    // Nobody left with room: the last worker keeps its connections.
    expect(book.report(0, 1, 100)).toBe(0);
    expect(book.report(1, 1, 100)).toBe(0);
  });

  it("places the next connection elsewhere once the first worker has been busy for a while", () => {
    const book = new WorkerLoads();
    book.ready(0);
    book.ready(1);
    expect(book.place()).toBe(0);
    book.report(0, 0.9, 40);
    expect(book.place()).toBe(0);
    book.report(0, 0.9, 40);
    book.report(0, 0.9, 40);
    expect(book.place()).toBe(1);
    book.unplace(1);
    for (let i = 0; i < 8; i++) book.report(0, 0.2, 40);
    expect(book.place()).toBe(0);
  });
});
