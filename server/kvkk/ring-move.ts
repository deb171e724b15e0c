import type pg from "pg";

/** A query over either a pg pool or a Prisma transaction (the marking counts inside its own). */
export type Query = <T>(sql: string, params: unknown[]) => Promise<T[]>;
export const pgQuery =
  (c: pg.Pool | pg.PoolClient): Query =>
  async <T>(sql: string, params: unknown[]) =>
    (await c.query(sql, params)).rows as T[];

/**
 * A row is special-category when its tenant or its endpoint is marked (KVKK Art. 6); written so the
 * planner can use the tenant and endpoint indexes, and never NULL (a row without an endpoint), so NOT works.
 */
export const SPECIAL_ROW = `(c."tenantId" IN (SELECT id FROM "Tenant" WHERE "specialCategory" IS NOT NULL) OR (c."endpointId" IS NOT NULL AND c."endpointId" IN (SELECT id FROM "Endpoint" WHERE "specialCategory" IS NOT NULL)))`;

/**
 * Rows whose client IP is not under the current version of the ring they belong to now: an older
 * version of their own ring (a rotation), or the other ring (their tenant or endpoint was marked
 * special, or unmarked, since they were written). `$current` is the SQL for that ring's current version.
 */
export function misplacedIps(ring: "standard" | "special", current: string): string {
  return ring === "special"
    ? `c."ipKeyVersion" IS NOT NULL AND c."ipKeyVersion" <> ${current} AND ${SPECIAL_ROW}`
    : `c."ipKeyVersion" IN (SELECT version FROM "SubjectKeyVersion" WHERE version <> ${current}) AND NOT ${SPECIAL_ROW}`;
}

export interface PendingMove {
  tenantId: string;
  slug: string | null;
  toRing: "standard" | "special";
  /** Client IPs the re-key will move (it runs every 5 minutes, or by hand). */
  ipRows: number;
  /** Subject hashes under the other ring: one-way, so they keep their version until retention or erasure removes the row. */
  subjectRows: number;
}

/**
 * What a marking (or its removal) left under the other ring, per tenant: the progress of the
 * move the re-key makes. `scope` narrows it to one tenant or endpoint (the marking's audit event).
 */
export async function pendingMoves(query: Query, scope: { tenantId?: string; endpointId?: string } = {}): Promise<PendingMove[]> {
  const scoped = scope.tenantId ? `c."tenantId" = $1 AND ` : scope.endpointId ? `c."endpointId" = $1 AND ` : "";
  // Only special rows and rows under special versions can be misplaced: the rest of the log is not read.
  const special = `(SELECT version FROM "SubjectKeyVersion" WHERE ring = 'special')`;
  const where = `${scoped}(${SPECIAL_ROW} OR c."ipKeyVersion" IN ${special} OR c."userHashKeyVersion" IN ${special})`;
  const rows = await query<{ tenantId: string; slug: string | null; toRing: "standard" | "special"; ip: string | bigint; subject: string | bigint }>(
    `WITH rows AS (
       SELECT c."tenantId", CASE WHEN ${SPECIAL_ROW} THEN 'special' ELSE 'standard' END AS target, ki.ring AS "ipRing", ku.ring AS "subjectRing"
         FROM "CallLog" c
         LEFT JOIN "SubjectKeyVersion" ki ON ki.version = c."ipKeyVersion"
         LEFT JOIN "SubjectKeyVersion" ku ON ku.version = c."userHashKeyVersion"
        WHERE ${where})
     SELECT r."tenantId", t.slug, r.target AS "toRing", count(*) FILTER (WHERE r."ipRing" <> r.target) AS ip, count(*) FILTER (WHERE r."subjectRing" <> r.target) AS subject
       FROM rows r LEFT JOIN "Tenant" t ON t.id = r."tenantId"
      WHERE r."ipRing" <> r.target OR r."subjectRing" <> r.target
      GROUP BY 1, 2, 3 ORDER BY 2, 3`,
    scope.tenantId || scope.endpointId ? [scope.tenantId ?? scope.endpointId] : [],
  );
  return rows.map((x) => ({ tenantId: x.tenantId, slug: x.slug, toRing: x.toRing, ipRows: Number(x.ip), subjectRows: Number(x.subject) }));
}
