import type { Prisma } from "../db/generated/client.ts";
import type { DbTx } from "../db/client.ts";
import { NotFoundError } from "../errors.ts";

// Versions created together (an endpoint's first ones) share createdAt: id keeps their order stable.
const versionOrder: Prisma.EndpointVersionOrderByWithRelationInput[] = [{ createdAt: "asc" }, { id: "asc" }];

export const detailInclude = {
  model: { select: { id: true, name: true, task: true } },
  nodePool: { select: { id: true, name: true, region: true } },
  versions: {
    orderBy: versionOrder,
    include: {
      modelVersion: { select: { id: true, version: true, precision: true, format: true, weightBytes: true, minGpuMemoryBytes: true } },
      replicas: {
        where: { state: { not: "stopped" } },
        orderBy: { createdAt: "asc" },
        select: { id: true, driver: true, state: true, reason: true, placementReason: true, region: true, externalUrl: true, expectedReadyAt: true, migStartSlot: true, node: { select: { hostname: true } }, gpu: { select: { index: true } }, tensorParallel: true, pipelineParallel: true, gpus: { orderBy: { rank: "asc" }, select: { gpu: { select: { index: true, node: { select: { hostname: true } } } } } } },
      },
    },
  },
} as const;

/** An endpoint with its versions and their live replicas, as pages and rollouts see it; inside a transaction too. */
export async function loadEndpoint(db: DbTx, id: string) {
  const endpoint = await db.endpoint.findUnique({ where: { id }, include: detailInclude });
  if (!endpoint) throw new NotFoundError("Endpoint");
  return endpoint;
}

export type EndpointDetail = Awaited<ReturnType<typeof loadEndpoint>>;
