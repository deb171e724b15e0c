/** `npm run bench`: every benchmark, each writing its figures to bench/results/<name>.json. */
import { benchSim } from "./sim.ts";
import { benchGateway } from "./gateway.ts";
import { benchGatewayOtel } from "./gateway-otel.ts";
import { benchDashboard } from "./dashboard.ts";
import { benchRollouts } from "./rollouts.ts";
import { benchCost } from "./cost.ts";
import { benchAudit } from "./audit.ts";
import { benchKubernetes } from "./kubernetes.ts";
import { benchRouting } from "./routing.ts";
import { benchCapacity } from "./capacity.ts";
import { benchBigModels } from "./big-models.ts";
import { benchPlanner } from "./planner.ts";
import { benchOverload } from "./overload.ts";
import { run } from "../scripts/lib/proc.ts";

const only = process.argv[2];
const benches: Record<string, () => Promise<void>> = { sim: benchSim, gateway: benchGateway, rollouts: benchRollouts, cost: benchCost, dashboard: benchDashboard, audit: benchAudit, routing: benchRouting, capacity: benchCapacity, "big-models": benchBigModels, planner: benchPlanner, overload: benchOverload, kubernetes: async () => {
  await benchKubernetes();
  // In a process of its own: Prisma's WebAssembly schema engine, loaded a second time in one process, fails to migrate.
  await run(process.execPath, ["node_modules/tsx/dist/cli.mjs", "bench/cluster-page.ts"]);
} };

// On demand only: the full gateway bench measures the same figure.
const onDemand: Record<string, () => Promise<void>> = { "gateway-otel": benchGatewayOtel };

for (const [name, run] of Object.entries({ ...benches, ...(only ? onDemand : {}) })) {
  if (only && only !== name) continue;
  console.log(`\n── bench: ${name}`);
  await run();
}
