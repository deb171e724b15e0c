import { Prisma, type PrismaClient } from "../db/generated/client.ts";

export const monthStart = (now = new Date()) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/** What each tenant has been charged this month, from the hourly roll-ups (0 for none). */
export async function spentThisMonth(db: PrismaClient, tenantIds: string[]): Promise<Map<string, Prisma.Decimal>> {
  const rows = await db.$queryRaw<{ tenantId: string; spent: Prisma.Decimal }[]>`
    SELECT "tenantId", sum(charged) AS spent FROM "UsageHour" WHERE hour >= ${monthStart()} AND "tenantId" = ANY(${tenantIds}) GROUP BY 1`;
  const out = new Map(tenantIds.map((id) => [id, new Prisma.Decimal(0)]));
  for (const r of rows) out.set(r.tenantId, new Prisma.Decimal(r.spent));
  return out;
}
