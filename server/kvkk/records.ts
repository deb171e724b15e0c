import type { ActorContext } from "../auth/actor.ts";
import type { ListDestructionsInput } from "./schemas.ts";

/** Destruction records, newest first, without their per-hour adjustments (those are for the chain check). */
export async function listDestructions({ db }: ActorContext, input: ListDestructionsInput) {
  return db.destructionRecord.findMany({
    where: input.tenantId ? { tenantId: input.tenantId } : {},
    orderBy: { runAt: "desc" },
    take: input.limit,
    omit: { adjustments: true },
  });
}

export async function listSubjectRequests({ db }: ActorContext) {
  return db.dataSubjectRequest.findMany({ orderBy: { createdAt: "desc" }, take: 50 });
}
