import type { PrismaClient } from "../../server/db/generated/client.ts";
import { clusterDriver, type Drivers } from "../../server/cluster/drivers.ts";
import { applyReplicaStatus } from "../../server/cluster/replicas.ts";
import { deployVersion } from "../../server/rollouts/actions.ts";
import { startPlan } from "../../server/rollouts/plans.ts";
import { startPlanInput } from "../../server/rollouts/schemas.ts";
import { DEMO } from "./demo-replicas.ts";

const ENDPOINT = "chat";
const CANARY = "1.1";
const HOLD = 2 * 3600;

/**
 * The demo opens with one endpoint mid-canary: chat's version 1.1 deployed beside 1.0 and an
 * automatic plan (10% → 25% → 50% → 100%, two hours a step) running, so the endpoint page shows
 * a split, the plan's progress and its analysis. Done through the operator's own actions (audited
 * as the demo start-up), once: an endpoint that ever had a rollout is left as it is.
 */
export async function startDemoCanary(db: PrismaClient, drivers: Drivers): Promise<string> {
  const endpoint = await db.endpoint.findUnique({ where: { slug: ENDPOINT }, include: { model: { include: { versions: true } }, _count: { select: { rollouts: true } } } });
  if (!endpoint) return `no ${ENDPOINT} endpoint`;
  if (endpoint._count.rollouts > 0) return `${ENDPOINT} already had a rollout: left as it is`;
  const mv = endpoint.model.versions.find((v) => v.version === CANARY);
  if (!mv) return `${endpoint.model.name} has no version ${CANARY}`;
  const ctx = { db, actor: DEMO, ip: null, drivers };
  const deployed = await deployVersion(ctx, { endpointId: endpoint.id, modelVersionId: mv.id, replicas: 1, expectedRevision: endpoint.revision }).catch((e: Error) => e);
  if (deployed instanceof Error) return `canary not started: ${deployed.message}`;
  const cluster = clusterDriver(drivers);
  for (const r of deployed.replicas) await applyReplicaStatus(db, await cluster.awaitReady(r.id, 60_000).catch(() => cluster.replicaHealth(r.id)));
  const now = await db.endpoint.findUniqueOrThrow({ where: { id: endpoint.id }, include: { versions: true } });
  const canary = now.versions.find((v) => v.modelVersionId === mv.id);
  if (canary?.state !== "ready") return `canary not started: version ${CANARY} is ${canary?.state ?? "missing"}`;
  const input = startPlanInput.parse({
    endpointId: now.id,
    canaryVersionId: canary.id,
    expectedRevision: now.revision,
    steps: [10, 25, 50, 100].map((weight) => ({ weight, holdSeconds: weight === 100 ? 1 : HOLD })),
  });
  await startPlan(ctx, input);
  return `${ENDPOINT} ${CANARY} at 10% (automatic canary, 2 h a step)`;
}
