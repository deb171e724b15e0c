import { describe, expect, it } from "vitest";
import { stateAlerts } from "./state-alerts.ts";

const budget = (spent: number, hardCap = false) => ({ tenant: "anadolu-bank", name: "Anadolu Bank", spent, budget: 1000, currency: "TRY", hardCap });
const none = { budgets: [], failedReplicas: [], failedMig: [] };

describe("alerts from Kule's own state", () => {
  it("warns at 80% of a tenant's monthly budget and raises a ticket at 100%, saying whether the hard cap now refuses calls", () => {
    expect(stateAlerts({ ...none, budgets: [budget(799)] })).toEqual([]);
    const [warn] = stateAlerts({ ...none, budgets: [budget(850)] });
    expect(warn).toMatchObject({ labels: { alertname: "KuleTenantBudget80", severity: "warning", tenant: "anadolu-bank" }, annotations: { summary: "Anadolu Bank has spent 85% of its monthly budget" } });
    const spent = stateAlerts({ ...none, budgets: [budget(1000, true)] });
    expect(spent.map((a) => a.labels.alertname)).toEqual(["KuleTenantBudgetSpent"]); // not both
    expect(spent[0]!.annotations.description).toBe("Anadolu Bank has been charged 1000.00 of 1000.00 TRY this month. Its hard cap now refuses its calls (429).");
  });
  it("names the endpoint, replica and node of a failed replica, and the node and layout of a failed MIG change", () => {
    const alerts = stateAlerts({ ...none, failedReplicas: [{ id: "r1", endpoint: "chat", version: "1.1", node: "llm-1", reason: "CUDA out of memory" }], failedMig: [{ hostname: "llm-2", config: "all-1g.10gb", reason: "reboot required" }] });
    expect(alerts[0]).toMatchObject({ labels: { alertname: "KuleReplicaFailed", endpoint: "chat", kule_replica: "r1", hostname: "llm-1" }, annotations: { description: "CUDA out of memory" } });
    expect(alerts[1]).toMatchObject({ labels: { alertname: "KuleMigChangeFailed", severity: "page", hostname: "llm-2" }, annotations: { description: expect.stringContaining("Layout all-1g.10gb: reboot required") } });
  });
  it("pages when a gateway refuses calls because it does not hold the call log's current key", () => {
    const [a] = stateAlerts({ ...none, gatewayKeys: [{ instance: "gw-2:8080:41", reason: "this gateway does not hold v2, the current standard key version" }] });
    expect(a).toMatchObject({ labels: { alertname: "KuleGatewayKeyMismatch", severity: "page", instance: "gw-2:8080:41" }, annotations: { description: expect.stringContaining("does not hold v2") } });
  });
});
