import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { NotFoundError } from "../errors.ts";
import { claimRevision } from "../rollouts/weights.ts";
import type { PrometheusClient } from "../metrics/prometheus-client.ts";
import { syncSloRules, type SloRulesSync } from "../metrics/slo/rules-sync.ts";
import type { UpdateSloInput } from "./update-slo.types.ts";

const sloOf = (e: { sloAvailabilityPct: unknown; sloP99LatencyMs: number; sloTtftMs: number | null }) => ({
  sloAvailabilityPct: Number(e.sloAvailabilityPct),
  sloP99LatencyMs: e.sloP99LatencyMs,
  sloTtftMs: e.sloTtftMs,
});

/**
 * Changes an endpoint's SLOs (audited, refused on a stale revision), then regenerates the SLO
 * rules and reloads Prometheus. The answer says whether Prometheus took the new rules.
 */
export async function updateEndpointSlo(ctx: ActorContext & { prometheus: PrometheusClient }, input: UpdateSloInput) {
  const endpoint = await ctx.db.$transaction(async (tx) => {
    const before = await tx.endpoint.findUnique({ where: { id: input.endpointId } });
    if (!before) throw new NotFoundError("Endpoint");
    await claimRevision(tx, before.id, input.expectedRevision);
    const after = await tx.endpoint.update({
      where: { id: before.id },
      data: { sloAvailabilityPct: input.sloAvailabilityPct, sloP99LatencyMs: input.sloP99LatencyMs, sloTtftMs: input.sloTtftMs ?? null },
    });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "endpoint.slo.update", targetType: "endpoint", targetId: after.id, before: sloOf(before), after: sloOf(after) });
    return after;
  });
  const rules: SloRulesSync = await syncSloRules(ctx).catch((e: unknown) => ({ state: "failed" as const, message: e instanceof Error ? e.message : String(e) }));
  return { endpoint: { id: endpoint.id, revision: endpoint.revision, ...sloOf(endpoint) }, rules };
}
