import { afterAll, describe, expect, it } from "vitest";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { caller, makeActor } from "../test/harness.ts";
import { setAppTracer } from "./app-tracing.ts";

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
setAppTracer(provider.getTracer("kule-app-test"));
afterAll(() => setAppTracer(null));

describe("the app's traces", () => {
  it("are one span per tRPC procedure, saying who called it and how it ended", async () => {
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
  });
});
