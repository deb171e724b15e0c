import { describe, expect, it } from "vitest";
import { DEFAULT_SLO_RULE_OPTIONS, durationSeconds, generateSloRules, windowsOf } from "./slo-rules.ts";

const chat = { slug: "chat", availabilityPct: 99.9, p99LatencyMs: 2000, ttftMs: 500 };

describe("SLO rule generator", () => {
  it("writes the SRE workbook's three burn-rate alerts per SLI, with thresholds of burn rate × budget", () => {
    const y = generateSloRules([chat]);
    expect(y.match(/- alert: KuleSloBurnFast/g)).toHaveLength(3); // availability, latency, ttft
    expect(y).toContain('kule:slo_errors:ratio_rate1h{endpoint=\\"chat\\",slo=\\"availability\\"} > 0.0144 and kule:slo_errors:ratio_rate5m{endpoint=\\"chat\\",slo=\\"availability\\"} > 0.0144');
    expect(y).toContain('kule:slo_errors:ratio_rate6h{endpoint=\\"chat\\",slo=\\"availability\\"} > 0.006 and kule:slo_errors:ratio_rate30m');
    expect(y).toContain('kule:slo_errors:ratio_rate3d{endpoint=\\"chat\\",slo=\\"latency\\"} > 0.01 and kule:slo_errors:ratio_rate6h');
    expect(y).toMatch(/for: 2m[\s\S]*severity: page[\s\S]*for: 15m[\s\S]*severity: page[\s\S]*for: 1h[\s\S]*severity: ticket/);
  });
  it("leaves out the TTFT SLI when the endpoint has no TTFT objective", () => {
    const y = generateSloRules([{ ...chat, ttftMs: null }]);
    expect(y).not.toContain('slo: "ttft"');
    expect(y).toContain('slo: "latency"');
  });
  it("escapes endpoint slugs into label values", () => {
    expect(generateSloRules([{ ...chat, slug: 'a"b' }])).toContain('endpoint=\\"a\\\\\\"b\\"');
  });
  it("measures latency and TTFT at exactly the thresholds the SLO names, even between the histogram's buckets (2000 ms, 750 ms)", () => {
    const y = generateSloRules([{ ...chat, p99LatencyMs: 2000, ttftMs: 750 }]);
    expect(y).toContain('threshold_seconds: "2"');
    expect(y).toContain('threshold_seconds: "0.75"');
    expect(y).toContain('slo=\\"latency\\",threshold_ms=\\"2000\\",result=\\"bad\\"');
    expect(y).toContain('slo=\\"ttft\\",threshold_ms=\\"750\\",result=\\"bad\\"');
    expect(y).not.toMatch(/le=/); // never a histogram bucket, which would move the threshold
  });
  it("takes windows and `for` as parameters (tests use seconds) and refuses malformed ones", () => {
    const fast = { alerts: [{ name: "KuleSloBurnFast", severity: "page" as const, burnRate: 14.4, long: "20s", short: "10s", for: "3s" }], budgetWindow: "30d" };
    expect(windowsOf(fast)).toEqual(["10s", "20s", "30d"]);
    expect(generateSloRules([chat], fast)).toContain("for: 3s");
    expect(() => generateSloRules([chat], { ...fast, budgetWindow: "30 days" })).toThrow(/invalid window/);
    expect(windowsOf(DEFAULT_SLO_RULE_OPTIONS)).toEqual(["5m", "1h", "30m", "6h", "3d", "30d"]);
  });
  it("writes an empty rule file when there are no endpoints", () => {
    expect(generateSloRules([])).toMatch(/groups: \[\]\n$/);
  });
  it("parses Prometheus durations", () => {
    expect(durationSeconds("3d")).toBe(259200);
    expect(() => durationSeconds("3x")).toThrow();
  });
});
