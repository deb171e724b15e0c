/** `npm run bench`: every benchmark, each writing its figures to bench/results/<name>.json. */
import { benchSim } from "./sim.ts";
import { benchGateway } from "./gateway.ts";
import { benchDashboard } from "./dashboard.ts";
import { benchRollouts } from "./rollouts.ts";
import { benchCost } from "./cost.ts";
import { benchAudit } from "./audit.ts";
import { benchKubernetes } from "./kubernetes.ts";
import { benchClusterPage } from "./cluster-page.ts";

const only = process.argv[2];
const benches: Record<string, () => Promise<void>> = { sim: benchSim, gateway: benchGateway, rollouts: benchRollouts, cost: benchCost, dashboard: benchDashboard, audit: benchAudit, kubernetes: async () => (await benchKubernetes(), await benchClusterPage()) };

for (const [name, run] of Object.entries(benches)) {
  if (only && only !== name) continue;
  console.log(`\n── bench: ${name}`);
  await run();
}
