import type { PrismaClient, Prisma } from "../db/generated/client.ts";
import type { DbTx } from "../db/client.ts";
import { parallelismText } from "../shared/memory-rule.ts";

/** States in which a replica holds its GPUs (a draining one still runs its engine). */
export const HOLDING = ["pending", "loading", "ready", "draining"] as const;

export interface Holder {
  replicaId: string;
  /** "chat-70b 1.0, TP 4 over 4 GPUs": how an operator recognises it. */
  label: string;
  group: boolean;
}

/**
 * Which GPUs live replicas hold: a replica's own GPU (`gpuId`, whole or one MIG instance) and
 * every member of a tensor/pipeline-parallel group (`ReplicaGpu`). Placement, the MIG editor and
 * node pages ask here, so a GPU in the middle of a group is never offered twice.
 */
export async function heldGpus(db: PrismaClient | DbTx, gpuWhere: Prisma.GpuWhereInput) {
  const replicas = await db.replica.findMany({
    where: { state: { in: [...HOLDING] }, OR: [{ gpu: gpuWhere }, { gpus: { some: { gpu: gpuWhere } } }] },
    select: { id: true, gpuId: true, migStartSlot: true, tensorParallel: true, pipelineParallel: true, gpus: { select: { gpuId: true } }, endpointVersion: { select: { endpoint: { select: { slug: true } }, modelVersion: { select: { version: true } } } } },
  });
  const whole = new Map<string, Holder>();
  const mig = new Map<string, Holder>();
  for (const r of replicas) {
    const n = r.tensorParallel * r.pipelineParallel;
    const group = n > 1;
    const holder: Holder = { replicaId: r.id, group, label: `${r.endpointVersion.endpoint.slug} ${r.endpointVersion.modelVersion.version}${group ? `, ${parallelismText({ tensor: r.tensorParallel, pipeline: r.pipelineParallel })} over ${n} GPUs` : ""}` };
    if (r.gpuId && r.migStartSlot !== null) mig.set(`${r.gpuId}:${r.migStartSlot}`, holder);
    else if (r.gpuId) whole.set(r.gpuId, holder);
    for (const g of r.gpus) if (r.migStartSlot === null) whole.set(g.gpuId, holder);
  }
  return { whole, mig };
}
