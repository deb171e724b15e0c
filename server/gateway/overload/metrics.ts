import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { GatewayConfig } from "../config.ts";
import type { OverloadGate, OverloadObserver } from "./gate.ts";

/**
 * The overload queue on the gateway's /metrics: what waits now by class and tenant, how long the
 * admitted waited, what was shed and why, each tenant's weighted tokens (its share against its
 * weight), and each replica's learned limit.
 */
export function overloadMetrics(registry: Registry, gate: Pick<OverloadGate, "queues" | "engines">, config: () => GatewayConfig | null): OverloadObserver {
  const registers = [registry];
  const slugs = () => {
    const cfg = config();
    return { endpoint: (id: string) => cfg?.endpointsById.get(id)?.slug ?? id, tenant: (id: string) => cfg?.tenants.get(id)?.slug ?? id };
  };
  new Gauge({
    name: "kule_gateway_queue_depth",
    help: "Calls held in the gateway's overload queue, by endpoint, priority class and tenant.",
    labelNames: ["endpoint", "priority", "tenant"],
    registers,
    collect() {
      this.reset();
      const name = slugs();
      for (const [id, s] of gate.queues) for (const d of s.depth()) this.set({ endpoint: name.endpoint(id), priority: d.priority, tenant: name.tenant(d.tenantId) }, d.queued);
    },
  });
  new Gauge({
    name: "kule_gateway_replica_concurrency_limit",
    help: "Calls at once the gateway sends a replica, learned from its engine's own metrics (absent: not limited).",
    labelNames: ["replica"],
    registers,
    collect() {
      this.reset();
      for (const [id, limit] of gate.engines.limits) this.set({ replica: id }, limit);
    },
  });
  const waited = new Histogram({ name: "kule_gateway_queue_seconds", help: "Time admitted calls waited in the overload queue.", labelNames: ["endpoint", "priority"], buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60], registers });
  const weighted = new Counter({ name: "kule_gateway_weighted_tokens_total", help: "Tokens served to each tenant at an endpoint divided by its plan's fair-share weight: equal rates under fair sharing.", labelNames: ["endpoint", "tenant"], registers });
  const shed = new Counter({ name: "kule_gateway_shed_total", help: "Calls the overload queue refused (429 or 503 with Retry-After), by reason.", labelNames: ["endpoint", "tenant", "priority", "reason"], registers });
  return {
    admitted: (endpoint, priority, s) => waited.observe({ endpoint, priority }, s),
    shed: (endpoint, tenant, priority, reason) => shed.inc({ endpoint, tenant, priority, reason }),
    served: (endpoint, tenant, weightedTokens) => weighted.inc({ endpoint, tenant }, weightedTokens),
  };
}
