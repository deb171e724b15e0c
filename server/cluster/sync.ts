import type { PrismaClient } from "../db/generated/client.ts";
import { clusterDriver, type Drivers } from "./drivers.ts";
import type { ClusterEvent } from "./driver.ts";
import { applyReplicaStatus, reconcileReplicas } from "./replicas.ts";
import { applyDiscoveryEvent, syncTopology } from "./discovery.ts";

/**
 * Keeps the database in step with the cluster: applies each driver event in the order it came,
 * and whenever the cluster driver's event stream (re)connects, discovers the cluster again and
 * reconciles the replicas, so nothing is missed across a restart of either side. Returns the
 * function that stops it.
 */
export function startClusterSync(db: PrismaClient, drivers: Drivers, log: Pick<Console, "error"> = console): () => void {
  let chain = Promise.resolve();
  const enqueue = (job: () => Promise<unknown>) => {
    chain = chain.then(job).then(
      () => {},
      (e: unknown) => log.error("[cluster-sync]", e instanceof Error ? e.message : e),
    );
  };
  const cluster = clusterDriver(drivers);
  // Topology events come in bursts (a node's labels change several times): one discovery each burst.
  let discoveryQueued = false;
  const discover = () => {
    if (discoveryQueued) return;
    discoveryQueued = true;
    enqueue(async () => {
      discoveryQueued = false;
      await syncTopology(db, await cluster.listTopology(), cluster.kind);
    });
  };
  // A replica's events queued behind others collapse into its latest status: under a burst (a
  // deploy of many replicas) the table catches up with the cluster instead of replaying history.
  const latest = new Map<string, ClusterEvent & { type: "replica" }>();
  const applyReplica = (e: ClusterEvent & { type: "replica" }) => {
    const queued = latest.has(e.replica.id);
    latest.set(e.replica.id, e);
    if (queued) return;
    enqueue(async () => {
      const now = latest.get(e.replica.id)!;
      latest.delete(e.replica.id);
      await applyEvent(db, now);
    });
  };
  const apply = (e: ClusterEvent) => (e.type === "topology" ? discover() : e.type === "replica" ? applyReplica(e) : enqueue(() => applyEvent(db, e)));
  const offCluster = cluster.subscribe(apply, () => {
    discover();
    enqueue(() => reconcileReplicas(db, drivers));
  });
  const offExternal = drivers.external.subscribe(apply);
  return () => {
    offCluster();
    offExternal();
  };
}

export async function applyEvent(db: PrismaClient, e: ClusterEvent): Promise<void> {
  if (e.type === "replica") return applyReplicaStatus(db, e.replica);
  await applyDiscoveryEvent(db, e);
}

/** Discovers the cluster once (scripts and tests that seed before the app runs). */
export async function discoverCluster(db: PrismaClient, drivers: Drivers): Promise<void> {
  const cluster = clusterDriver(drivers);
  await syncTopology(db, await cluster.listTopology(), cluster.kind);
}
