import { afterAll, describe, expect, it } from "vitest";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { AggregationTemporality, InMemoryMetricExporter, type HistogramMetricData } from "@opentelemetry/sdk-metrics";
import { caller, makeActor } from "../test/harness.ts";
import { setAppMetrics, setAppTracer } from "./app-tracing.ts";

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
setAppTracer(provider.getTracer("kule-app-test"));
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const flushMetrics = setAppMetrics(metricExporter);
afterAll(() => {
  setAppTracer(null);
  setAppMetrics(null);
});

describe("the app's traces and metrics", () => {
  it("are one span per tRPC procedure, saying who called it and how it ended, and its time in rpc.server.call.duration", async () => {
    await caller(await makeActor("admin")).tenant.list();
    await expect(caller(await makeActor("auditor")).tenant.create({ name: "Nope Ltd", slug: "nope-ltd" })).rejects.toThrow();
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const list = spans.find((s) => s.name === "trpc tenant.list")!;
    expect(list.attributes).toMatchObject({ "rpc.system": "trpc", "rpc.method": "tenant.list", "kule.procedure_type": "query", "kule.role": "admin" });
    expect(list.attributes["error.type"]).toBeUndefined();
    const refused = spans.find((s) => s.name === "trpc tenant.create")!;
    expect(refused.attributes).toMatchObject({ "kule.role": "auditor", "error.type": "FORBIDDEN" });
    expect(refused.status.code).toBe(2); // ERROR

    await flushMetrics();
    const metric = metricExporter
      .getMetrics()
      .flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics))
      .findLast((m) => m.descriptor.name === "rpc.server.call.duration") as HistogramMetricData;
    expect(metric.descriptor.unit).toBe("s");
    const point = (method: string) => metric.dataPoints.find((p) => p.attributes["rpc.method"] === method)!;
    expect(point("tenant.list").attributes["error.type"]).toBeUndefined();
    expect(point("tenant.list").value.count).toBeGreaterThanOrEqual(1);
    expect(point("tenant.create").attributes).toMatchObject({ "rpc.system": "trpc", "error.type": "FORBIDDEN" });
  });
});
