import type { Db } from "../db/client.ts";
import type { ListDestructionsInput } from "./schemas.ts";

/** Destruction records, newest first, without their per-hour adjustments (those are for the chain check). */
export async function listDestructions({ db }: { db: Db }, input: ListDestructionsInput) {
  return db.destructionRecord.findMany({
    where: input.tenantId ? { tenantId: input.tenantId } : {},
    orderBy: { runAt: "desc" },
    take: input.limit,
    omit: { adjustments: true },
  });
}

export async function listSubjectRequests({ db }: { db: Db }) {
  return db.dataSubjectRequest.findMany({ orderBy: { createdAt: "desc" }, take: 50 });
}
