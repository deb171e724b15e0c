/** `npm run bench`: every benchmark, each writing its figures to bench/results/<name>.json. */
import { benchSim } from "./sim.ts";
import { benchGateway } from "./gateway.ts";
import { benchDashboard } from "./dashboard.ts";
import { benchRollouts } from "./rollouts.ts";

const only = process.argv[2];
const benches: Record<string, () => Promise<void>> = { sim: benchSim, gateway: benchGateway, rollouts: benchRollouts, dashboard: benchDashboard };

for (const [name, run] of Object.entries(benches)) {
  if (only && only !== name) continue;
  console.log(`\n── bench: ${name}`);
  await run();
}
