import type { PrismaClient } from "../db/generated/client.ts";
import type { Drivers } from "../cluster/drivers.ts";
import type { PrometheusClient } from "../metrics/prometheus-client.ts";
import { DrainWorker } from "./drain.ts";
import { tickPlans } from "./plans.ts";
import { prometheusAnalysis } from "./analysis.ts";

/**
 * The control plane's rollout loop: every `intervalMs`, the automatic canaries decide and the
 * drains move on. Ticks never overlap; an error is logged and the next tick tries again.
 */
export function startRolloutWorker(ctx: { db: PrismaClient; drivers: Drivers; prometheus: PrometheusClient }, intervalMs = 1000): { stop: () => Promise<void>; drains: DrainWorker } {
  const drains = new DrainWorker(ctx);
  const analyze = (e: { slug: string }, canary: string, stable: string | null, w: number) => prometheusAnalysis(ctx.prometheus, e.slug, canary, stable, w);
  let busy: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (busy) return;
    busy = (async () => {
      try {
        await tickPlans(ctx.db, analyze);
        await drains.tick();
      } catch (e) {
        console.error(`[rollouts] tick failed: ${(e as Error).message}`);
      } finally {
        busy = null;
      }
    })();
  }, intervalMs);
  timer.unref();
  return {
    drains,
    stop: async () => {
      clearInterval(timer);
      await busy;
      await drains.settle();
    },
  };
}
