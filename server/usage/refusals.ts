import type { PrismaClient } from "../db/generated/client.ts";
import { LIMIT_CLASSES, type LimitClass } from "../shared/limit-classes.ts";

/** A tenant's calls the gateway refused for a limit or shed under overload since `from`, by which, most first. */
export async function refusalsByLimit(db: PrismaClient, tenantId: string, from: Date) {
  const rows = await db.callLog.groupBy({
    by: ["errorClass"],
    where: { tenantId, startedAt: { gte: from }, status: { in: [429, 503] }, errorClass: { in: Object.keys(LIMIT_CLASSES) } },
    _count: { _all: true },
    _max: { startedAt: true },
  });
  return rows
    .map((r) => ({ limit: r.errorClass as LimitClass, label: LIMIT_CLASSES[r.errorClass as LimitClass], calls: r._count._all, lastAt: r._max.startedAt }))
    .sort((a, b) => b.calls - a.calls);
}
