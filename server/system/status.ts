import { env } from "../env.ts";
import type { ClusterContext } from "../cluster/drivers.ts";
import { can } from "../auth/permissions.ts";
import { driverView } from "../cluster/operations.ts";

export const PROMETHEUS_HOW_TO =
  "Install Prometheus (Debian/Ubuntu: sudo apt-get install -y prometheus; macOS: brew install prometheus) and restart `npm run demo`; or set KULE_PROMETHEUS_URL to a Prometheus that scrapes Kule.";

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1500) })).ok;
  } catch {
    return false;
  }
}

/**
 * Whether the parts Kule leans on answer: the cluster (its driver), the simulator and Prometheus.
 * Where they run (their addresses) is told to staff only; a tenant learns whether they answer, not where.
 */
export async function systemStatus({ drivers, actor }: ClusterContext) {
  const promUrl = env.KULE_PROMETHEUS_URL ?? null;
  const [sim, prom] = await Promise.all([answers(`${drivers.sim.baseUrl}/healthz`), promUrl ? answers(`${promUrl}/-/ready`) : Promise.resolve(false)]);
  const internals = can(actor.role, "system:internals");
  const cluster = driverView(drivers, sim);
  return {
    simulator: { url: internals ? drivers.sim.baseUrl : null, reachable: sim },
    cluster: { ...cluster, url: internals ? cluster.url : null },
    prometheus: { url: internals ? promUrl : null, configured: promUrl !== null, reachable: prom, howTo: internals ? PROMETHEUS_HOW_TO : "Ask your operator to turn metrics on." },
  };
}
