import type { PrismaClient } from "../db/generated/client.ts";
import type { ListAuditInput } from "./schemas.ts";
import type { Actor } from "../auth/actor.ts";
import { recordAudit } from "./record.ts";

/** Newest first, keyset-paginated on the id (no OFFSET, so deep pages stay fast). */
export async function listAuditEvents({ db, actor, ip }: { db: PrismaClient; actor: Actor; ip: string | null }, input: ListAuditInput) {
  const rows = await db.auditEvent.findMany({
    where: {
      ...(input.cursor ? { id: { lt: BigInt(input.cursor) } } : {}),
      ...(input.action ? { action: { startsWith: input.action } } : {}),
      ...(input.actorEmail ? { actorEmail: { contains: input.actorEmail, mode: "insensitive" as const } } : {}),
      ...(input.targetType ? { targetType: input.targetType } : {}),
      ...(input.from || input.to ? { at: { ...(input.from ? { gte: input.from } : {}), ...(input.to ? { lt: input.to } : {}) } } : {}),
    },
    orderBy: { id: "desc" },
    take: input.limit + 1,
  });
  const more = rows.length > input.limit;
  const items = more ? rows.slice(0, input.limit) : rows;
  // Reading the audit log (staff IPs and e-mails) is itself logged, once per search, after the read so it does not list itself.
  if (!input.cursor) await recordAudit(db, { actor, ip, action: "audit.read", targetType: "audit", after: { filter: { ...input, cursor: undefined, limit: undefined }, rows: items.length } });
  return {
    items: items.map((r) => ({ ...r, id: r.id.toString() })),
    nextCursor: more ? items[items.length - 1]!.id.toString() : null,
  };
}
