import { env } from "../env.ts";
import type { Drivers } from "../cluster/drivers.ts";
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

/** Whether the parts Kule leans on answer: the cluster (its driver), the simulator and Prometheus. */
export async function systemStatus({ drivers }: { drivers: Drivers }) {
  const promUrl = env.KULE_PROMETHEUS_URL ?? null;
  const [sim, prom] = await Promise.all([answers(`${drivers.sim.baseUrl}/healthz`), promUrl ? answers(`${promUrl}/-/ready`) : Promise.resolve(false)]);
  return {
    simulator: { url: drivers.sim.baseUrl, reachable: sim },
    cluster: driverView(drivers, sim),
    prometheus: { url: promUrl, configured: promUrl !== null, reachable: prom, howTo: PROMETHEUS_HOW_TO },
  };
}
