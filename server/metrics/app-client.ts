import { env } from "../env.ts";
import { PrometheusClient } from "./prometheus-client.ts";

const g = globalThis as unknown as { kulePrometheus?: PrometheusClient };

/** One client per app process, so its short cache is shared by every viewer. */
export function appPrometheus(): PrometheusClient {
  g.kulePrometheus ??= new PrometheusClient(env.KULE_PROMETHEUS_URL ?? null, { rules: env.KULE_PROMETHEUS_RULES_DIR ? { dir: env.KULE_PROMETHEUS_RULES_DIR } : undefined });
  return g.kulePrometheus;
}
