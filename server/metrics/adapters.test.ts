import { describe, expect, it } from "vitest";
import { matrixToRows } from "./adapters.ts";
import { endpointQueries, labelValue, stepFor } from "./promql.ts";

describe("chart adapter", () => {
  it("puts every series on the step grid and leaves missing samples as gaps, not zeros", () => {
    const m = {
      resultType: "matrix" as const,
      result: [
        { metric: { version: "1.0" }, values: [[100, "2"], [110, "3"]] as [number, string][] },
        { metric: { version: "1.1" }, values: [[105, "0"], [110, "NaN"]] as [number, string][] },
      ],
    };
    const { rows, series } = matrixToRows(m, { start: 100, end: 110, step: 5 }, (l) => l.version!);
    expect(series).toEqual(["1.0", "1.1"]);
    expect(rows).toEqual([
      { t: 100_000, "1.0": 2, "1.1": null },
      { t: 105_000, "1.0": null, "1.1": 0 },
      { t: 110_000, "1.0": 3, "1.1": null },
    ]);
  });
  it("scales values (seconds to milliseconds)", () => {
    const m = { resultType: "matrix" as const, result: [{ metric: {}, values: [[0, "0.25"]] as [number, string][] }] };
    expect(matrixToRows(m, { start: 0, end: 0, step: 5 }, () => "p99", 1000).rows[0]).toEqual({ t: 0, p99: 250 });
  });
});

describe("PromQL builders", () => {
  it("escape label values so user text cannot become PromQL", () => {
    expect(labelValue('chat"} or vector(1) #')).toBe('"chat\\"} or vector(1) #"');
    expect(endpointQueries.requestsByVersion('a"b', "30s")).toBe('sum by (version) (rate(kule_gateway_requests_total{endpoint="a\\"b"}[30s]))');
  });
  it("build latency percentiles from the gateway's histogram", () => {
    expect(endpointQueries.latency("chat", 0.99, "60s")).toBe('histogram_quantile(0.99, sum by (le) (rate(kule_gateway_request_duration_seconds_bucket{endpoint="chat"}[60s])))');
  });
  it("choose about 120 points per range, never finer than the scrape interval", () => {
    expect(stepFor("15m")).toBe(8);
    expect(stepFor("7d")).toBe(5040);
  });
});

describe("fleet adapter", () => {
  it("folds dcgm vectors into one record per GPU, with no number as null", async () => {
    const { byUuid } = await import("./gpu-fleet.ts");
    const v = (uuid: string, x: string) => ({ metric: { UUID: uuid, gpu: "0" }, value: [0, x] as [number, string] });
    const out = byUuid({ util: [v("GPU-a", "73")], fbUsed: [v("GPU-a", "8170")], fbFree: [v("GPU-a", "73750")], power: [v("GPU-a", "NaN")], temp: [v("GPU-b", "40")] });
    expect(out["GPU-a"]).toEqual({ utilPct: 73, fbUsedMiB: 8170, fbFreeMiB: 73750, powerW: null, tempC: null });
    expect(out["GPU-b"]).toEqual({ utilPct: null, fbUsedMiB: null, fbFreeMiB: null, powerW: null, tempC: 40 });
  });
});

describe("batch fill adapter", () => {
  it("divides running sequences by the replicas' summed maximum batch, per step; no replica is a gap", async () => {
    const { batchFillRows } = await import("./adapters.ts");
    const m: import("./adapters.ts").PromMatrix = {
      resultType: "matrix",
      result: [
        { metric: { kule_replica: "a", kule_max_num_seqs: "32" }, values: [[100, "16"], [105, "32"]] as [number, string][] },
        { metric: { kule_replica: "b", kule_max_num_seqs: "16" }, values: [[105, "8"]] as [number, string][] },
        { metric: { kule_replica: "c" }, values: [[105, "99"]] as [number, string][] }, // no maximum: left out
      ],
    };
    expect(batchFillRows(m, { start: 100, end: 110, step: 5 }).rows).toEqual([
      { t: 100_000, "batch fill": 50 },
      { t: 105_000, "batch fill": 83.33333333333333 },
      { t: 110_000, "batch fill": null },
    ]);
  });
});
