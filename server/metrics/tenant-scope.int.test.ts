import { describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { createCaller } from "../routers/root.ts";
import { metricsRouter } from "../routers/metrics.ts";
import { makeActor, makeEndpoint, makeTenant, testDb, testDrivers } from "../test/harness.ts";
import { PrometheusClient } from "./prometheus-client.ts";

/** A client that notes every query it is asked before trying Prometheus (none here: metrics are off). */
class NotingClient extends PrometheusClient {
  asked: string[] = [];
  override queryRange(query: string, start: number, end: number, step: number) {
    this.asked.push(query);
    return super.queryRange(query, start, end, step);
  }
  override query(query: string) {
    this.asked.push(query);
    return super.query(query);
  }
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "OK";
  } catch (e) {
    return e instanceof TRPCError ? e.code : `unexpected ${String(e)}`;
  }
}

describe("a tenant user cannot read another tenant's metrics through any metrics procedure", () => {
  it("every procedure but its own tenant charts is refused, and those are scoped to its tenant whatever the input says", async () => {
    const [mine, theirs] = [await makeTenant(), await makeTenant()];
    const { endpoint } = await makeEndpoint();
    const prometheus = new NotingClient(null);
    const tenantApi = createCaller({ db: testDb(), actor: await makeActor("tenant", mine.id), ip: null, drivers: testDrivers(), prometheus });
    const gpu = await testDb().gpu.findFirstOrThrow();
    // Every metrics procedure, with the input most likely to reach another tenant's data.
    const attempts: Record<string, () => Promise<unknown>> = {
      gpuFleet: () => tenantApi.metrics.gpuFleet(),
      endpointCharts: () => tenantApi.metrics.endpointCharts({ endpointId: endpoint.id, range: "15m" }),
      gpuCharts: () => tenantApi.metrics.gpuCharts({ scope: { kind: "gpu", uuid: gpu.uuid }, range: "15m" }),
      sla: () => tenantApi.metrics.sla(),
      grafanaDashboard: () => tenantApi.metrics.grafanaDashboard({ endpointId: endpoint.id }),
      explore: () => tenantApi.metrics.explore({ query: `kule_gateway_requests_total{tenant="${theirs.slug}"}`, range: "15m" }),
      tenantCharts: () => tenantApi.metrics.tenantCharts({ range: "15m" }),
    };
    // A procedure added later must be added here too.
    expect(Object.keys(attempts).sort()).toEqual(Object.keys(metricsRouter._def.procedures).sort());
    for (const [name, attempt] of Object.entries(attempts)) {
      expect(`${name}: ${await codeOf(attempt())}`).toBe(name === "tenantCharts" ? "tenantCharts: OK" : `${name}: FORBIDDEN`);
    }
    // Naming another tenant is refused outright, not ignored.
    expect(await codeOf(tenantApi.metrics.tenantCharts({ range: "15m", tenantId: theirs.id } as never))).toBe("BAD_REQUEST");
    // Every query the tenant's charts asked for carries its own tenant label, and only that.
    expect(prometheus.asked.length).toBeGreaterThan(0);
    for (const q of prometheus.asked) {
      expect(q).toContain(`tenant="${mine.slug}"`);
      expect(q).not.toContain(theirs.slug);
      expect(q.match(/tenant=/g)!.length).toBe(q.match(new RegExp(`tenant="${mine.slug}"`, "g"))!.length);
    }
  });
});
