import { describe, expect, it } from "vitest";
import { createCaller } from "../../routers/root.ts";
import { makeActor, makeEndpoint, testDb, testDrivers } from "../../test/harness.ts";
import { PrometheusClient } from "../prometheus-client.ts";

describe("SLA status when Prometheus does not answer", () => {
  it("says so, and still lists every endpoint with its SLOs (status unknown) instead of failing", async () => {
    const { endpoint } = await makeEndpoint();
    const api = createCaller({ db: testDb(), actor: await makeActor("auditor"), ip: null, drivers: testDrivers(), prometheus: new PrometheusClient("http://127.0.0.1:9") });
    const sla = await api.metrics.sla();
    expect(sla.prometheus).toEqual({ available: false, reason: { key: "noAnswer", values: expect.objectContaining({ url: expect.any(String) }) } });
    const mine = sla.endpoints.find((e) => e.endpointId === endpoint.id)!;
    expect(mine.status).toBe("no-data");
    expect(mine.slis.map((s) => [s.kind, s.objective])).toEqual([
      ["availability", 0.999],
      ["latency", 0.99],
    ]);
  });
});
