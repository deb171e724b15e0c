import { db } from "./db/client.ts";
import { appDrivers } from "./cluster/drivers.ts";
import { startClusterSync } from "./cluster/sync.ts";

const g = globalThis as unknown as { kuleBackground?: () => void };

/** Work the app server does beside answering requests: following the cluster's events. */
export function startBackground() {
  g.kuleBackground ??= startClusterSync(db(), appDrivers());
}
