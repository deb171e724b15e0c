import { describe, expect, it } from "vitest";
import { dcgmQueries, deviceName, groupQueries, hostnameOf, xidEvents } from "./gpu-charts.ts";

describe("DCGM charts", () => {
  it("marks an XID where dcgm's last-XID gauge changes to a non-zero code, once per change", () => {
    const m = {
      resultType: "matrix" as const,
      result: [
        { metric: { gpu: "3", UUID: "GPU-3" }, values: [[100, "0"], [105, "79"], [110, "79"], [115, "0"], [120, "48"]] as [number, string][] },
        { metric: { gpu: "0", UUID: "GPU-0" }, values: [[100, "0"], [105, "0"]] as [number, string][] },
      ],
    };
    expect(xidEvents(m, (l) => deviceName("node", l))).toEqual([
      { t: 105_000, xid: 79, device: "GPU 3" },
      { t: 120_000, xid: 48, device: "GPU 3" },
    ]);
  });
  it("names whole GPUs and MIG instances by dcgm-exporter's labels", () => {
    expect(deviceName("node", { gpu: "1" })).toBe("GPU 1");
    expect(deviceName("node", { gpu: "1", GPU_I_ID: "2", GPU_I_PROFILE: "3g.40gb" })).toBe("GPU 1 · 3g.40gb #2");
    expect(deviceName("gpu", { gpu: "1", GPU_I_ID: "", GPU_I_PROFILE: "" })).toBe("GPU");
    expect(deviceName("gpu", { gpu: "1", GPU_I_ID: "2", GPU_I_PROFILE: "3g.40gb" })).toBe("MIG 3g.40gb #2");
  });
  it("scopes every query by an escaped GPU label, or a node under either spelling of dcgm-exporter's host label", () => {
    expect(dcgmQueries.grEngine({ kind: "gpu", uuid: "GPU-a" })).toBe('DCGM_FI_PROF_GR_ENGINE_ACTIVE{UUID="GPU-a"}');
    expect(dcgmQueries.grEngine({ kind: "node", hostname: 'n"1' })).toBe('(DCGM_FI_PROF_GR_ENGINE_ACTIVE{hostname="n\\"1"} or DCGM_FI_PROF_GR_ENGINE_ACTIVE{Hostname="n\\"1"})');
  });
  it("reads utilization from GPU_UTIL on whole GPUs and from GR engine activity on MIG instances, which have no GPU_UTIL", () => {
    expect(dcgmQueries.util({ kind: "gpu", uuid: "GPU-a" })).toBe('DCGM_FI_DEV_GPU_UTIL{UUID="GPU-a",GPU_I_ID=""} or DCGM_FI_PROF_GR_ENGINE_ACTIVE{UUID="GPU-a"} * 100');
  });
  it("reads device-level values once per GPU (they repeat on every MIG instance) and sums memory per GPU on a node", () => {
    expect(dcgmQueries.power({ kind: "gpu", uuid: "GPU-a" })).toBe('max by (gpu, UUID) (DCGM_FI_DEV_POWER_USAGE{UUID="GPU-a"})');
    expect(dcgmQueries.fbUsed({ kind: "node", hostname: "n" })).toBe('sum by (gpu, UUID) ((DCGM_FI_DEV_FB_USED{hostname="n"} or DCGM_FI_DEV_FB_USED{Hostname="n"}))');
    // A GPU page keeps its instances apart.
    expect(dcgmQueries.fbUsed({ kind: "gpu", uuid: "GPU-a" })).toBe('DCGM_FI_DEV_FB_USED{UUID="GPU-a"}');
  });
  it("reads a group replica's GPUs together: utilization as mean and max, power summed, memory per GPU", () => {
    const group = { kind: "group" as const, uuids: ["GPU-a", "GPU-b.1"] };
    expect(groupQueries.fbUsed(group)).toBe('DCGM_FI_DEV_FB_USED{UUID=~"GPU-a|GPU-b\\\\.1"}');
    expect(groupQueries.power(group)).toBe('label_replace(sum(max by (gpu, UUID) (DCGM_FI_DEV_POWER_USAGE{UUID=~"GPU-a|GPU-b\\\\.1"})), "agg", "sum", "", "")');
    expect(groupQueries.util(group)).toMatch(/^label_replace\(avg\(.*\), "agg", "mean", "", ""\) or label_replace\(max\(.*\), "agg", "max", "", ""\)$/);
    expect(deviceName("group", { agg: "mean" })).toBe("mean");
    expect(deviceName("group", { gpu: "3", Hostname: "gpu-llm-01" })).toBe("gpu-llm-01 GPU 3");
  });
  it("finds a series' node under either host label", () => {
    expect(hostnameOf({ Hostname: "a" })).toBe("a");
    expect(hostnameOf({ hostname: "b" })).toBe("b");
    expect(hostnameOf({})).toBe("");
  });
});
