import type pg from "pg";
import type { ActorContext } from "../auth/actor.ts";
import { pgPool } from "../db/pg-pool.ts";
import { recordAudit } from "../audit/record.ts";
import { HOUR_MS } from "../audit/seal/digest.ts";
import { countryOfSql, inTurkeySql } from "../shared/regions.ts";
import type { ResidencyInput } from "./schemas.ts";
import { insertFinding } from "./breaches.ts";

/** The safeguard in force for a call row `c` sent to `region` abroad (the newest signed before it, not revoked by then). */
export const coveringSafeguardSql = (c: string, region = `${c}.region`) =>
  `SELECT g.id FROM "TransferSafeguard" g
    WHERE g."tenantId" = ${c}."tenantId" AND g.destination = ${countryOfSql(region)}
      AND g."signedAt" <= ${c}."startedAt" AND (g."revokedAt" IS NULL OR g."revokedAt" > ${c}."startedAt")
    ORDER BY g."signedAt" DESC LIMIT 1`;

/**
 * Every region a call row `c` was sent to: where it was answered, and where a retried attempt or
 * a shadow copy went (its `otherRegions`). Each is a transfer when abroad, answered or not.
 */
export const CALL_REGIONS_SQL = `SELECT unnest(ARRAY[c.region] || coalesce(string_to_array(c."otherRegions", ','), '{}')) AS region`;

/**
 * Copies the calls sent outside Turkey that started before `upTo` (whole hours, past the
 * call log's grace for late rows) into the transfer register, each hour once: the register then
 * outlives the call log's retention. Runs in the caller's transaction (the destruction run calls
 * it first, so nothing it destroys is missing from the register).
 */
export async function rollUpTransfers(client: pg.PoolClient, now = new Date()): Promise<number> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext('kule_transfer_register'))");
  const s = await client.query<{ until: Date | null; grace: number }>(
    `SELECT "transfersRolledUntil" AT TIME ZONE 'UTC' AS until, "sealGraceMinutes" AS grace FROM "KvkkSettings" WHERE id = 'singleton'`,
  );
  const row = s.rows[0];
  if (!row) return 0;
  const upTo = new Date(Math.floor((now.getTime() - row.grace * 60_000) / HOUR_MS) * HOUR_MS);
  const from = row.until ?? new Date(0);
  if (upTo <= from) return 0;
  const r = await client.query(
    `INSERT INTO "TransferRecord" ("tenantId", hour, region, "safeguardId", calls, "firstAt", "lastAt")
     SELECT c."tenantId", date_trunc('hour', c."startedAt"), r.region, s.id, count(*), min(c."startedAt"), max(c."startedAt")
       FROM "CallLog" c CROSS JOIN LATERAL (${CALL_REGIONS_SQL}) r LEFT JOIN LATERAL (${coveringSafeguardSql("c", "r.region")}) s ON true
      WHERE r.region IS NOT NULL AND NOT (${inTurkeySql("r.region")})
        AND c."startedAt" >= $1::timestamptz AT TIME ZONE 'UTC' AND c."startedAt" < $2::timestamptz AT TIME ZONE 'UTC'
      GROUP BY 1, 2, 3, 4`,
    [from, upTo],
  );
  await client.query(`UPDATE "KvkkSettings" SET "transfersRolledUntil" = $1::timestamptz AT TIME ZONE 'UTC' WHERE id = 'singleton'`, [upTo]);
  // The residency detector: calls served abroad with no safeguard are a transfer without a legal basis.
  const bare = await client.query<{ tenants: string; calls: string; first: Date; last: Date }>(
    `SELECT count(DISTINCT "tenantId") AS tenants, sum(calls) AS calls, min(hour) AT TIME ZONE 'UTC' AS first, max(hour) AT TIME ZONE 'UTC' AS last FROM "TransferRecord"
      WHERE "safeguardId" IS NULL AND hour >= $1::timestamptz AT TIME ZONE 'UTC' AND hour < $2::timestamptz AT TIME ZONE 'UTC' HAVING count(*) > 0`,
    [from, upTo],
  );
  const b = bare.rows[0];
  if (b) {
    await insertFinding(
      client,
      {
        detector: "residency",
        key: `residency:${from.toISOString()}:${upTo.toISOString()}`,
        title: `${b.calls} call(s) of ${b.tenants} tenant(s) were served abroad with no transfer safeguard`,
        description: "The transfer register found calls served outside Turkey that no recorded safeguard covered (KVKK Art. 9): a transfer without a legal basis. The gateway should refuse these; check region labels and safeguards.",
        occurredFrom: b.first,
        occurredTo: new Date(b.last.getTime() + HOUR_MS),
      },
      now,
    );
  }
  return r.rowCount ?? 0;
}

/** Brings the register up to date in a transaction of its own. */
export async function rollUpTransfersNow(pool: pg.Pool, now = new Date()) {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const n = await rollUpTransfers(client, now);
    await client.query("COMMIT");
    return n;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

/**
 * The register of transfers abroad (KVKK Art. 9): per tenant, hour and region, the calls served
 * there and the safeguard that covered them; rows without one are incidents.
 */
export async function transferRegister(ctx: ActorContext, input: ResidencyInput) {
  await rollUpTransfersNow(pgPool(ctx.db));
  const rows = await ctx.db.transferRecord.findMany({
    where: { hour: { gte: input.from, lt: input.to }, ...(input.tenantId ? { tenantId: input.tenantId } : {}) },
    orderBy: [{ hour: "desc" }, { tenantId: "asc" }, { region: "asc" }],
    take: 1000,
  });
  const [tenants, safeguards] = await Promise.all([
    ctx.db.tenant.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.tenantId))] } }, select: { id: true, slug: true } }),
    ctx.db.transferSafeguard.findMany({ where: { id: { in: [...new Set(rows.flatMap((r) => (r.safeguardId ? [r.safeguardId] : [])))] } }, select: { id: true, importer: true, mechanism: true, reference: true } }),
  ]);
  const slug = new Map(tenants.map((t) => [t.id, t.slug]));
  const sg = new Map(safeguards.map((s) => [s.id, s]));
  const out = rows.map((r) => ({ id: r.id.toString(), tenantId: r.tenantId, tenantSlug: slug.get(r.tenantId) ?? null, hour: r.hour, region: r.region, calls: r.calls, firstAt: r.firstAt, lastAt: r.lastAt, safeguard: r.safeguardId ? (sg.get(r.safeguardId) ?? null) : null }));
  await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.transfers.read", targetType: "transfer_register", after: { ...input, rows: out.length } });
  return out;
}
