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
  it("fall back to vLLM's pre-0.12 names per replica, inside one query", () => {
    expect(endpointQueries.kvCache("chat")).toBe('avg(vllm:kv_cache_usage_perc{kule_endpoint="chat"} or vllm:gpu_cache_usage_perc{kule_endpoint="chat"})');
    expect(endpointQueries.tpot("chat", 0.5, "30s")).toBe(
      'histogram_quantile(0.5, sum by (le) (rate(vllm:inter_token_latency_seconds_bucket{kule_endpoint="chat"}[30s]) or rate(vllm:time_per_output_token_seconds_bucket{kule_endpoint="chat"}[30s])))',
    );
  });
  it("select engines by Kule's target labels and the exporters' metric names, never by job", () => {
    const all = Object.values(endpointQueries).map((f) => (f as (e: string, a: unknown, b: unknown) => string)("chat", 0.5, "30s"));
    for (const q of all) expect(q).not.toMatch(/\bjob\s*=/);
    expect(endpointQueries.tritonFailures("detect", "30s")).toBe('sum by (reason) (rate(nv_inference_request_failure{kule_endpoint="detect"}[30s]))');
  });
  it("choose about 120 points per range, never finer than the scrape interval", () => {
    expect(stepFor("15m")).toBe(8);
    expect(stepFor("7d")).toBe(5040);
  });
});

describe("fleet adapter", () => {
  const v = (uuid: string, x: string, extra: Record<string, string> = {}) => ({ metric: { UUID: uuid, gpu: "0", ...extra }, value: [0, x] as [number, string] });
  it("folds dcgm vectors into one record per GPU, with no number as null", async () => {
    const { byUuid } = await import("./gpu-fleet.ts");
    const out = byUuid({ util: [v("GPU-a", "73")], fbUsed: [v("GPU-a", "8170")], fbFree: [v("GPU-a", "73750")], power: [v("GPU-a", "NaN")], temp: [v("GPU-b", "40")] });
    expect(out["GPU-a"]).toEqual({ utilPct: 73, fbUsedMiB: 8170, fbFreeMiB: 73750, powerW: null, tempC: null });
    expect(out["GPU-b"]).toEqual({ utilPct: null, fbUsedMiB: null, fbFreeMiB: null, powerW: null, tempC: 40 });
  });
  it("folds a MIG GPU's instances into it: memory summed, device readings once, utilization by compute slices", async () => {
    const { byUuid } = await import("./gpu-fleet.ts");
    // dcgm-exporter's default mode: only instance series, device-level values repeated on each (either host label).
    const i3 = { GPU_I_PROFILE: "3g.40gb", GPU_I_ID: "1", Hostname: "n" };
    const i2 = { GPU_I_PROFILE: "2g.20gb", GPU_I_ID: "3", hostname: "n" };
    const i1 = { GPU_I_PROFILE: "1g.10gb", GPU_I_ID: "9", Hostname: "n" };
    const out = byUuid({
      util: [v("GPU-m", "87.5", i3), v("GPU-m", "61", i2), v("GPU-m", "0", i1)],
      fbUsed: [v("GPU-m", "36412", i3), v("GPU-m", "17980", i2), v("GPU-m", "0", i1)],
      fbFree: [v("GPU-m", "3999", i3), v("GPU-m", "2097", i2), v("GPU-m", "9975", i1)],
      power: [v("GPU-m", "388.9", i3), v("GPU-m", "388.9", i2), v("GPU-m", "388.9", i1)],
      temp: [v("GPU-m", "61", i3), v("GPU-m", "61", i2), v("GPU-m", "61", i1)],
    });
    // (3 × 87.5 + 2 × 61 + 1 × 0) / 7 = 54.9 %
    expect(out["GPU-m"]).toEqual({ utilPct: 54.9, fbUsedMiB: 54392, fbFreeMiB: 16071, powerW: 388.9, tempC: 61 });
  });
  it("counts a GPU scraped by two jobs once", async () => {
    const { byUuid } = await import("./gpu-fleet.ts");
    const out = byUuid({ util: [v("GPU-a", "50", { job: "a" }), v("GPU-a", "50", { job: "b" })], fbUsed: [v("GPU-a", "100", { job: "a" }), v("GPU-a", "100", { job: "b" })], fbFree: [], power: [], temp: [] });
    expect(out["GPU-a"]).toMatchObject({ utilPct: 50, fbUsedMiB: 100 });
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
  it("says why replicas without a known maximum batch are left out", async () => {
    const { batchFillRows } = await import("./adapters.ts");
    const m: import("./adapters.ts").PromMatrix = { resultType: "matrix", result: [{ metric: { kule_replica: "ext-1" }, values: [[100, "4"]] as [number, string][] }] };
    const out = batchFillRows(m, { start: 100, end: 100, step: 5 });
    expect(out.rows).toEqual([{ t: 100_000, "batch fill": null }]);
    expect(out.note).toEqual({ key: "batchLeftOut", values: { count: 1 } });
    expect(batchFillRows({ resultType: "matrix", result: [] }, { start: 100, end: 100, step: 5 }).note).toBeUndefined();
  });
});
