import { pgPool } from "../db/pg-pool.ts";
import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import type { ResidencyInput } from "./schemas.ts";
import { inTurkeySql, isInTurkey } from "../shared/regions.ts";

/** A KVKK tenant's calls must be served only in Turkey (Article 9). */
const IN_TURKEY = inTurkeySql("c.region");

export interface MapCell {
  tenantId: string;
  tenantSlug: string;
  kvkk: boolean;
  month: Date;
  region: string;
  calls: number;
  first: Date;
  last: Date;
  /** A KVKK tenant's call served outside Turkey: should never happen, the gateway refuses it. */
  incident: boolean;
}

async function cells(ctx: ActorContext, input: ResidencyInput, extra: string): Promise<MapCell[]> {
  const params: unknown[] = [input.from, input.to];
  if (input.tenantId) params.push(input.tenantId);
  const { rows } = await pgPool(ctx.db).query<Omit<MapCell, "calls" | "incident"> & { calls: string }>(
    `SELECT c."tenantId", t.slug AS "tenantSlug", t.kvkk, date_trunc('month', c."startedAt") AT TIME ZONE 'UTC' AS month, coalesce(c.region, 'unserved') AS region,
            count(*) AS calls, min(c."startedAt") AT TIME ZONE 'UTC' AS first, max(c."startedAt") AT TIME ZONE 'UTC' AS last
       FROM "CallLog" c JOIN "Tenant" t ON t.id = c."tenantId"
      WHERE c."startedAt" >= $1::timestamptz AT TIME ZONE 'UTC' AND c."startedAt" < $2::timestamptz AT TIME ZONE 'UTC' ${input.tenantId ? `AND c."tenantId" = $3` : ""} ${extra}
      GROUP BY 1, 2, 3, 4, 5 ORDER BY 2, 4, 5`,
    params,
  );
  return rows.map((r) => ({ ...r, calls: Number(r.calls), incident: r.kvkk && r.region !== "unserved" && !isInTurkey(r.region) }));
}

/** Per tenant and month, which regions served its calls; KVKK tenants' calls abroad are incidents. */
export async function residencyMap(ctx: ActorContext, input: ResidencyInput) {
  const map = await cells(ctx, input, "");
  await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.residency.read", targetType: "calllog", after: { ...input, cells: map.length } });
  return { cells: map, incidents: map.filter((c) => c.incident) };
}

/** Transfers abroad (Article 9): non-KVKK tenants' calls served outside Turkey, by region and month. */
export async function transferRegister(ctx: ActorContext, input: ResidencyInput) {
  const rows = await cells(ctx, input, `AND NOT t.kvkk AND c.region IS NOT NULL AND NOT (${IN_TURKEY})`);
  await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.transfers.read", targetType: "calllog", after: { ...input, rows: rows.length } });
  return rows;
}
