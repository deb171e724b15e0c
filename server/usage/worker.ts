import type { PrismaClient } from "../db/generated/client.ts";
import type { PrometheusClient } from "../metrics/prometheus-client.ts";
import { rollupDirtyHours } from "./rollup.ts";
import { computeRecentCosts } from "./cost.ts";
import { refreshBudgetBlocks } from "./caps.ts";
import { refreshDirtyDays } from "./daily.ts";

/**
 * The usage loop: roll up the hours the call log marked, then the hours' infrastructure cost,
 * (with the GPUs' energy from Prometheus when there is one), then the days either marked (a pass that fails leaves its marks for the next), then budgets —
 * every `intervalMs`. Caps are blocked by the call log's insert trigger as rows land; this pass
 * lifts blocks when a month begins (server/usage/caps.ts).
 */
export function startUsageWorker(db: PrismaClient, intervalMs = 15_000, opts: { prometheus?: PrometheusClient } = {}): { stop: () => Promise<void>; tick: () => Promise<void> } {
  let busy: Promise<void> | null = null;
  const tick = () =>
    (busy ??= (async () => {
      try {
        await rollupDirtyHours(db);
        await computeRecentCosts(db, Date.now(), 48, opts);
        await refreshDirtyDays(db);
        await refreshBudgetBlocks(db);
      } catch (e) {
        console.error(`[usage] pass failed: ${(e as Error).message}`);
      } finally {
        busy = null;
      }
    })());
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return {
    tick,
    stop: async () => {
      clearInterval(timer);
      await busy;
    },
  };
}
