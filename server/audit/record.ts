import type pg from "pg";
import type { DbTx } from "../db/client.ts";
import type { Actor } from "../auth/actor.ts";

export interface AuditInput {
  /** Who acted (only their id and e-mail are recorded). */
  actor: Pick<Actor, "userId" | "email"> | null;
  ip?: string | null;
  action: string;
  targetType: string;
  targetId?: string | null;
  before?: unknown;
  after?: unknown;
}

/** JSON-safe copy: BigInt and Decimal become strings, secrets never reach the log. */
function toJson(value: unknown): object | undefined {
  if (value === undefined || value === null) return undefined;
  return JSON.parse(
    JSON.stringify(value, (k, v) => {
      if (k === "passwordHash" || k === "secretHash") return undefined;
      return typeof v === "bigint" ? v.toString() : v;
    }),
  );
}

/** Call inside the same transaction as the change, so the change and its record land together. */
export async function recordAudit(tx: DbTx, e: AuditInput): Promise<void> {
  await tx.auditEvent.create({
    data: {
      actorId: e.actor?.userId ?? null,
      actorEmail: e.actor?.email ?? null,
      action: e.action,
      targetType: e.targetType,
      targetId: e.targetId ?? null,
      before: toJson(e.before),
      after: toJson(e.after),
      ip: e.ip ?? null,
    },
  });
}

/** The same event written on a plain pg client, inside the transaction of the change it records (destruction runs). */
export async function recordAuditSql(client: pg.PoolClient, e: AuditInput): Promise<void> {
  const json = (v: unknown) => {
    const j = toJson(v);
    return j === undefined ? null : JSON.stringify(j);
  };
  await client.query(`INSERT INTO "AuditEvent" ("actorId", "actorEmail", action, "targetType", "targetId", "before", "after", ip) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
    e.actor?.userId ?? null,
    e.actor?.email ?? null,
    e.action,
    e.targetType,
    e.targetId ?? null,
    json(e.before),
    json(e.after),
    e.ip ?? null,
  ]);
}
