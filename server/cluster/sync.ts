import type { PrismaClient } from "../db/generated/client.ts";
import type { Drivers } from "./drivers.ts";
import type { ClusterEvent } from "./driver.ts";
import { applyReplicaStatus, reconcileReplicas } from "./replicas.ts";

/**
 * Keeps the database in step with the cluster: applies each driver event in the order it came,
 * and reconciles everything whenever the simulator's event stream (re)connects, so nothing is
 * missed across a restart of either side. Returns the function that stops it.
 */
export function startClusterSync(db: PrismaClient, drivers: Drivers, log: Pick<Console, "error"> = console): () => void {
  let chain = Promise.resolve();
  const enqueue = (job: () => Promise<unknown>) => {
    chain = chain.then(job).then(
      () => {},
      (e: unknown) => log.error("[cluster-sync]", e instanceof Error ? e.message : e),
    );
  };
  const apply = (e: ClusterEvent) => enqueue(() => applyEvent(db, e));
  const offSim = drivers.sim.subscribe(apply, () => enqueue(() => reconcileReplicas(db, drivers)));
  const offExternal = drivers.external.subscribe(apply);
  return () => {
    offSim();
    offExternal();
  };
}

export async function applyEvent(db: PrismaClient, e: ClusterEvent): Promise<void> {
  if (e.type === "replica") return applyReplicaStatus(db, e.replica);
  if (e.type === "node") {
    await db.node.updateMany({ where: { hostname: e.hostname }, data: { status: e.status, cordoned: e.cordoned } });
  }
}
