import type pg from "pg";
import { randomUUID } from "node:crypto";

export interface FixtureRow {
  tenantId: string;
  startedAt: Date;
  status?: number;
  region?: string;
  clientIp?: string | null;
  apiKeyId?: string | null;
  userHash?: string | null;
  promptTokens?: number;
  completionTokens?: number;
  endpointId?: string | null;
  endpointVersionId?: string | null;
}

/** Inserts call-log rows as the gateway would (ids are fresh UUIDs); returns their request ids. */
export async function insertCalls(pool: pg.Pool, rows: FixtureRow[]): Promise<string[]> {
  const ids = rows.map(() => randomUUID());
  await pool.query(
    `INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", replica, region, "clientIp", "startedAt", "endedAt", "ttftMs", status, "promptTokens", "completionTokens", "userHash")
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::timestamptz[], $11::int[], $12::int[], $13::int[], $14::int[], $15::text[])`,
    [
      ids,
      rows.map((r) => r.tenantId),
      rows.map((r) => (r.apiKeyId === undefined ? "key-1" : r.apiKeyId)),
      rows.map((r) => r.endpointId ?? "ep-1"),
      rows.map((r) => r.endpointVersionId ?? "ev-1"),
      rows.map(() => "replica-1"),
      rows.map((r) => r.region ?? "tr-ist"),
      rows.map((r) => (r.clientIp === undefined ? "203.0.113.7" : r.clientIp)),
      rows.map((r) => r.startedAt),
      rows.map((r) => new Date(r.startedAt.getTime() + 250)),
      rows.map(() => 40),
      rows.map((r) => r.status ?? 200),
      rows.map((r) => r.promptTokens ?? 10),
      rows.map((r) => r.completionTokens ?? 20),
      rows.map((r) => r.userHash ?? null),
    ],
  );
  return ids;
}

export async function makeTenantIn(pool: pg.Pool, opts: { kvkk?: boolean; slug?: string } = {}): Promise<string> {
  const id = `t${randomUUID().slice(0, 8)}`;
  await pool.query(`INSERT INTO "Tenant" (id, name, slug, kvkk, "updatedAt") VALUES ($1, $2, $3, $4, now())`, [id, `Tenant ${id}`, opts.slug ?? id, opts.kvkk ?? false]);
  return id;
}

export const hoursAgo = (h: number, now = Date.now()) => new Date(Math.floor(now / 3_600_000) * 3_600_000 - h * 3_600_000);
