import type { ActorContext } from "../auth/actor.ts";
import type { FreeDevicesInput } from "./schemas.ts";
import type { PrismaClient } from "../db/generated/client.ts";
import { migInstanceMemoryBytes } from "./mig.ts";
import type { StartReplicaInput } from "./schemas.ts";
import { NotFoundError } from "../errors.ts";

const ACTIVE = ["pending", "loading", "ready", "draining"] as const;

export interface Placement {
  device: StartReplicaInput["device"];
  label: string;
  memoryBytes: number;
}

/**
 * Devices of a pool that could take a replica needing `minMemoryBytes`: whole GPUs and MIG
 * instances with nothing running on them, smallest that fits first (so big GPUs stay free for
 * big models), on nodes that are ready and not cordoned. CPU pools offer their nodes.
 */
export async function freeDevices(db: PrismaClient, nodePoolId: string, minMemoryBytes: number): Promise<Placement[]> {
  const nodes = await db.node.findMany({
    where: { nodePoolId, status: "ready", cordoned: false },
    orderBy: { hostname: "asc" },
    include: { gpus: { orderBy: { index: "asc" }, include: { migInstances: true } }, replicas: { where: { state: { in: [...ACTIVE] } }, select: { gpuId: true, migStartSlot: true } } },
  });
  const out: Placement[] = [];
  for (const n of nodes) {
    if (n.gpus.length === 0) {
      out.push({ device: { kind: "cpu", nodeId: n.id }, label: `${n.hostname} (CPU)`, memoryBytes: Number(n.memoryBytes) });
      continue;
    }
    for (const g of n.gpus) {
      const busy = n.replicas.filter((r) => r.gpuId === g.id);
      if (!g.migEnabled) {
        if (busy.length === 0) out.push({ device: { kind: "gpu", gpuId: g.id }, label: `${n.hostname} GPU ${g.index}`, memoryBytes: Number(g.memoryBytes) });
        continue;
      }
      for (const m of g.migInstances) {
        if (busy.some((r) => r.migStartSlot === m.startSlot)) continue;
        out.push({ device: { kind: "mig", gpuId: g.id, startSlot: m.startSlot }, label: `${n.hostname} GPU ${g.index} ${m.profile}@${m.startSlot}`, memoryBytes: migInstanceMemoryBytes(Number(g.memoryBytes), m.profile) });
      }
    }
  }
  return out.filter((p) => p.memoryBytes >= minMemoryBytes).sort((a, b) => a.memoryBytes - b.memoryBytes);
}

/** Devices of the endpoint's pool a version's replica fits on (its minimum GPU memory), smallest first. */
export async function devicesForVersion({ db }: ActorContext, { endpointVersionId }: FreeDevicesInput) {
  const v = await db.endpointVersion.findUnique({ where: { id: endpointVersionId }, include: { endpoint: true, modelVersion: true } });
  if (!v) throw new NotFoundError("Endpoint version");
  const minMemoryBytes = Number(v.modelVersion.minGpuMemoryBytes);
  return { minMemoryBytes, devices: await freeDevices(db, v.endpoint.nodePoolId, minMemoryBytes) };
}
