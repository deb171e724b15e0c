import { Prisma, type PrismaClient } from "../db/generated/client.ts";
import type { DbTx } from "../db/client.ts";

export const monthStart = (now = new Date()) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/**
 * What each tenant has been charged this month (0 for none), from the month spend the call log's
 * insert trigger keeps current as rows land (kule_live_spend): the same figure the database
 * blocks hard caps and credit limits on.
 */
export async function spentThisMonth(db: PrismaClient | DbTx, tenantIds: string[]): Promise<Map<string, Prisma.Decimal>> {
  const rows = await db.tenantMonthSpend.findMany({ where: { tenantId: { in: tenantIds }, month: monthStart() } });
  const out = new Map(tenantIds.map((id) => [id, new Prisma.Decimal(0)]));
  for (const r of rows) out.set(r.tenantId, new Prisma.Decimal(r.spent));
  return out;
}
