import type { PrismaClient } from "../../server/db/generated/client.ts";
import { clusterDriver, type Drivers } from "../../server/cluster/drivers.ts";
import type { Actor } from "../../server/auth/actor.ts";
import { placeReplicas } from "../../server/cluster/placement.ts";
import { applyReplicaStatus, startReplica } from "../../server/cluster/replicas.ts";

/** Who the audit log shows for what the demo does by itself. */
export const DEMO: Actor = { userId: "system:demo", email: "demo@kule.local", name: "Kule demo start-up", role: "admin", tenantId: null };

/**
 * On a demo start the simulator is new and runs nothing: give every version that takes traffic
 * one replica, so endpoints answer and charts move from the first minute.
 */
export async function startDemoReplicas(db: PrismaClient, drivers: Drivers): Promise<string[]> {
  const versions = await db.endpointVersion.findMany({
    where: { weight: { gt: 0 }, replicas: { none: { state: { in: ["pending", "loading", "ready", "draining"] } } } },
    include: { endpoint: true, modelVersion: true },
  });
  const started: string[] = [];
  const ids: string[] = [];
  for (const v of versions) {
    const placed = await placeReplicas(db, v.id, 1);
    const [place] = placed.chosen;
    if (!place) {
      started.push(`${v.endpoint.slug} ${v.modelVersion.version} not started: ${placed.why}`);
      continue;
    }
    // One version the driver cannot run must not keep the others (and the demo) from starting.
    const r = await startReplica({ db, actor: DEMO, ip: null, drivers }, { endpointVersionId: v.id, device: place.device }, { placementReason: place.reason }).catch((e: Error) => e);
    if (r instanceof Error) {
      started.push(`${v.endpoint.slug} ${v.modelVersion.version} not started: ${r.message}`);
      continue;
    }
    ids.push(r.id);
    started.push(`${v.endpoint.slug} ${v.modelVersion.version} on ${place.label}`);
  }
  // Record them ready before the gateway starts, so the first demo calls find them.
  for (const id of ids) {
    const cluster = clusterDriver(drivers);
    const status = await cluster.awaitReady(id, 60_000).catch(() => cluster.replicaHealth(id));
    await applyReplicaStatus(db, status);
  }
  return started;
}
