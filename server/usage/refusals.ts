import type { PrismaClient } from "../db/generated/client.ts";
import { LIMIT_CLASSES, type LimitClass } from "../shared/limit-classes.ts";

/**
 * A tenant's calls the gateway refused for a limit or shed under overload since `from`, by which,
 * most first. Read along the partial index of refused calls (migration 20261207081500): its
 * predicate is written here as constants, not parameters, so that every plan can prove it and
 * the tenant's other calls are never read.
 */
export async function refusalsByLimit(db: PrismaClient, tenantId: string, from: Date) {
  const rows = await db.$queryRaw<{ errorClass: string; calls: bigint; lastAt: Date }[]>`
    SELECT "errorClass", count(*) AS calls, max("startedAt") AS "lastAt"
      FROM "CallLog"
     WHERE "tenantId" = ${tenantId} AND "startedAt" >= ${from} AND status IN (429, 503) AND "errorClass" IS NOT NULL AND "errorClass" = ANY(${Object.keys(LIMIT_CLASSES)})
     GROUP BY 1`;
  return rows
    .map((r) => ({ limit: r.errorClass as LimitClass, label: LIMIT_CLASSES[r.errorClass as LimitClass], calls: Number(r.calls), lastAt: r.lastAt }))
    .sort((a, b) => b.calls - a.calls);
}
