import { pgPool } from "../db/pg-pool.ts";
import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import type { ResidencyInput } from "./schemas.ts";
import { inTurkeySql } from "../shared/regions.ts";
import { CALL_REGIONS_SQL, coveringSafeguardSql } from "./transfer-register.ts";

const IN_TURKEY = inTurkeySql("r.region");

export interface MapCell {
  tenantId: string;
  tenantSlug: string;
  kvkk: boolean;
  month: Date;
  region: string;
  calls: number;
  first: Date;
  last: Date;
  /** Calls served outside Turkey with no safeguard covering them (KVKK Art. 9): the gateway refuses these, so any is an incident. */
  uncovered: number;
  incident: boolean;
}

async function cells(ctx: ActorContext, input: ResidencyInput): Promise<MapCell[]> {
  const params: unknown[] = [input.from, input.to];
  if (input.tenantId) params.push(input.tenantId);
  const { rows } = await pgPool(ctx.db).query<Omit<MapCell, "calls" | "uncovered" | "incident"> & { calls: string; uncovered: string }>(
    `SELECT c."tenantId", t.slug AS "tenantSlug", t.kvkk, date_trunc('month', c."startedAt") AT TIME ZONE 'UTC' AS month, coalesce(r.region, 'unserved') AS region,
            count(*) AS calls, min(c."startedAt") AT TIME ZONE 'UTC' AS first, max(c."startedAt") AT TIME ZONE 'UTC' AS last,
            count(*) FILTER (WHERE r.region IS NOT NULL AND NOT (${IN_TURKEY}) AND (t.kvkk OR NOT EXISTS (${coveringSafeguardSql("c", "r.region")}))) AS uncovered
       FROM "CallLog" c JOIN "Tenant" t ON t.id = c."tenantId" CROSS JOIN LATERAL (${CALL_REGIONS_SQL}) r
      WHERE c."startedAt" >= $1::timestamptz AT TIME ZONE 'UTC' AND c."startedAt" < $2::timestamptz AT TIME ZONE 'UTC' ${input.tenantId ? `AND c."tenantId" = $3` : ""}
      GROUP BY 1, 2, 3, 4, 5 ORDER BY 2, 4, 5`,
    params,
  );
  return rows.map((r) => ({ ...r, calls: Number(r.calls), uncovered: Number(r.uncovered), incident: Number(r.uncovered) > 0 }));
}

/** Per tenant and month, which regions its calls were sent to (answered there, retried or shadowed); calls abroad with no safeguard are incidents. */
export async function residencyMap(ctx: ActorContext, input: ResidencyInput) {
  const map = await cells(ctx, input);
  await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.residency.read", targetType: "calllog", after: { ...input, cells: map.length } });
  return { cells: map, incidents: map.filter((c) => c.incident) };
}
