import type pg from "pg";
import type { Actor } from "../auth/actor.ts";

/** An audit event written on a plain pg client, inside the transaction of the change it records. */
export async function recordAuditSql(client: pg.PoolClient, e: { actor: Actor | null; ip?: string | null; action: string; targetType: string; targetId?: string | null; after?: unknown }) {
  await client.query(`INSERT INTO "AuditEvent" ("actorId", "actorEmail", action, "targetType", "targetId", "after", ip) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    e.actor?.userId ?? null,
    e.actor?.email ?? null,
    e.action,
    e.targetType,
    e.targetId ?? null,
    e.after === undefined ? null : JSON.stringify(e.after),
    e.ip ?? null,
  ]);
}
