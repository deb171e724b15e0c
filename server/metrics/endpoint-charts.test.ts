import { describe, expect, it } from "vitest";
import { chartsOf } from "./endpoint-charts.ts";
import type { PrometheusClient } from "./prometheus-client.ts";

/** A Prometheus with no series at all, counting the queries it is asked. */
function emptyPrometheus() {
  const asked: string[] = [];
  const client = { now: () => 1_800_000_000_000, queryRange: async (q: string) => (asked.push(q), { resultType: "matrix" as const, result: [] }) };
  return { client: client as unknown as PrometheusClient, asked };
}

describe("endpoint charts", () => {
  it("give a Triton endpoint Triton's panels and say why the token-based gateway panels stay empty", async () => {
    const { client } = emptyPrometheus();
    const out = await chartsOf(client, { slug: "detect", metrics: "triton" }, { range: "15m" });
    if (!out.available) throw new Error(out.reason.key);
    const byId = Object.fromEntries(out.charts.map((c) => [c.id, c]));
    expect(Object.keys(byId)).toEqual(["rps", "latency", "ttft", "overhead", "errors", "tokens", "overload-queue", "overload-shed", "overload-share", "triton-pending", "triton-time", "triton-failures"]);
    expect(byId.ttft!.note).toEqual({ key: "tritonNoFirstToken" });
    expect(byId.tokens!.note).toEqual({ key: "tritonNoTokens" });
    // No traffic yet on other panels is not explained away.
    expect(byId.latency!.note).toBeUndefined();
  });
  it("cost a vLLM endpoint the same number of queries as before Triton's panels existed (13), plus the gateway overhead's two and the overload queue's three", async () => {
    const { client, asked } = emptyPrometheus();
    const out = await chartsOf(client, { slug: "chat", metrics: "vllm" }, { range: "15m" });
    expect(out.available && out.charts.map((c) => c.id)).toEqual(["rps", "latency", "ttft", "tpot", "overhead", "errors", "tokens", "overload-queue", "overload-shed", "overload-share", "queue", "prefix-cache", "kv", "batch"]);
    expect(out.available && out.charts.find((c) => c.id === "ttft")!.note).toBeUndefined();
    // …and one for the prefix-cache hit rate.
    expect(asked).toHaveLength(19);
  });
  it("add the shadow panels, live beside shadow per version, only while a version takes shadow traffic", async () => {
    const { client, asked } = emptyPrometheus();
    const out = await chartsOf(client, { slug: "chat", metrics: "vllm", shadow: true }, { range: "15m" });
    expect(out.available && out.charts.slice(-2).map((c) => c.id)).toEqual(["shadow-latency", "shadow-errors"]);
    expect(asked.filter((q) => q.includes("kule_gateway_shadow_"))).toHaveLength(3);
  });
});
