import { describe, expect, it } from "vitest";
import { dcgmQueries, deviceName, xidEvents } from "./gpu-charts.ts";

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
  it("scopes every query by an escaped node or GPU label, whole-GPU gauges without MIG series", () => {
    expect(dcgmQueries.util({ kind: "node", hostname: 'n"1' })).toBe('DCGM_FI_DEV_GPU_UTIL{Hostname="n\\"1",GPU_I_ID=""}');
    expect(dcgmQueries.grEngine({ kind: "gpu", uuid: "GPU-a" })).toBe('DCGM_FI_PROF_GR_ENGINE_ACTIVE{UUID="GPU-a"}');
  });
});
