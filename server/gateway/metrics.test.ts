import { describe, expect, it } from "vitest";
import { gatewayMetrics } from "./metrics.ts";

const metrics = () => gatewayMetrics({ inFlight: () => 0, configAge: () => 0, callLog: { spooledRows: 0, heldRows: 0, journalFailing: false, spoolFailing: false, journalWriteErrors: 0 } });
const labels = { endpoint: "chat", version: "1.0", tenant: "acme", status: 200 };

async function sloCounts(m: ReturnType<typeof metrics>) {
  const text = await m.registry.metrics();
  return text.split("\n").filter((l) => l.startsWith("kule_gateway_slo_requests_total{"));
}

describe("the gateway's SLO counts", () => {
  it("judges each request against exactly its endpoint's thresholds, even between the histogram's buckets (2000 ms, 750 ms)", async () => {
    const m = metrics();
    const slo = { latencyMs: 2000, ttftMs: 750 };
    m.observe(labels, 1.5, 0.7, 10, 10, slo); // within both: a 1 s bucket would have called 1.5 s bad
    m.observe(labels, 2.0, 0.75, 10, 10, slo); // at the threshold is within it
    m.observe(labels, 2.1, 0.8, 10, 10, slo); // over both: a 1 s / 0.5 s bucket reading would agree, a 2.5 s one would not
    expect(await sloCounts(m)).toEqual([
      'kule_gateway_slo_requests_total{endpoint="chat",slo="latency",threshold_ms="2000",result="good"} 2',
      'kule_gateway_slo_requests_total{endpoint="chat",slo="ttft",threshold_ms="750",result="good"} 2',
      'kule_gateway_slo_requests_total{endpoint="chat",slo="latency",threshold_ms="2000",result="bad"} 1',
      'kule_gateway_slo_requests_total{endpoint="chat",slo="ttft",threshold_ms="750",result="bad"} 1',
    ]);
  });
  it("counts no TTFT where the endpoint has no TTFT objective or the answer had no first byte", async () => {
    const m = metrics();
    m.observe(labels, 0.1, 0.05, 1, 1, { latencyMs: 300, ttftMs: null });
    m.observe(labels, 0.1, null, 1, 1, { latencyMs: 300, ttftMs: 500 });
    const lines = await sloCounts(m);
    expect(lines.filter((l) => l.includes('slo="ttft"'))).toEqual([]);
    expect(lines).toContain('kule_gateway_slo_requests_total{endpoint="chat",slo="latency",threshold_ms="300",result="good"} 2');
  });
});

describe("the gateway's event-loop delay", () => {
  it("reports a stall of the loop since the last scrape, and starts again after each scrape", async () => {
    const m = metrics();
    const delay = async () => Number(/^kule_gateway_event_loop_delay_seconds\{quantile="1"\} (\S+)$/m.exec(await m.registry.metrics())![1]);
    await new Promise((r) => setTimeout(r, 30));
    await delay();
    const until = performance.now() + 60;
    while (performance.now() < until); // the loop held for 60 ms
    await new Promise((r) => setTimeout(r, 30));
    expect(await delay()).toBeGreaterThan(0.04);
    await new Promise((r) => setTimeout(r, 50));
    expect(await delay()).toBeLessThan(0.04);
  });
});
