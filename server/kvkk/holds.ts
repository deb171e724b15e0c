import type pg from "pg";
import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { hashSubject, subjectHashes } from "../call-log/subject-hash.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import type { HoldPlaceInput, HoldReleaseInput } from "./schemas.ts";

export interface Holds {
  /** A hold on the whole call log: the run destroys none of it. */
  all: boolean;
  tenants: Set<string>;
  /** Held people's hashes, under every key version each hold was placed with. */
  subjects: string[];
  /** How many holds are on a person (the run's record counts people, not their hashes). */
  subjectHolds: number;
}

export async function activeHolds(client: pg.PoolClient): Promise<Holds> {
  const r = await client.query<{ tenantId: string | null; subjectHash: string | null; subjectHashes: string[] }>(`SELECT "tenantId", "subjectHash", "subjectHashes" FROM "LegalHold" WHERE "releasedAt" IS NULL`);
  return {
    all: r.rows.some((h) => !h.tenantId && !h.subjectHash),
    tenants: new Set(r.rows.flatMap((h) => (h.tenantId && !h.subjectHash ? [h.tenantId] : []))),
    // A person's rows under every key version held when the hold was placed.
    subjects: r.rows.flatMap((h) => (h.subjectHashes.length ? h.subjectHashes : h.subjectHash ? [h.subjectHash] : [])),
    subjectHolds: r.rows.filter((h) => h.subjectHash).length,
  };
}

/** The holds that keep one person's rows in one tenant: on everything, on the tenant, or on the person. Their reasons, oldest first. */
export async function holdsOn(client: pg.PoolClient, tenantId: string, hashes: string[]): Promise<string[]> {
  const r = await client.query<{ reason: string }>(
    `SELECT reason FROM "LegalHold" WHERE "releasedAt" IS NULL
        AND ((("tenantId" IS NULL OR "tenantId" = $1) AND "subjectHash" IS NULL) OR "subjectHashes" && $2::text[] OR "subjectHash" = ANY($2))
      ORDER BY "createdAt"`,
    [tenantId, hashes],
  );
  return r.rows.map((h) => h.reason);
}

export function listHolds({ db }: ActorContext) {
  return db.legalHold.findMany({ orderBy: { createdAt: "desc" }, take: 100 });
}

/** Keeps a tenant's call log, one data subject's rows (by the `user` identifier, hashed), or everything, from destruction. */
export async function placeHold(ctx: ActorContext, input: HoldPlaceInput) {
  return ctx.db.$transaction(async (tx) => {
    if (input.tenantId && !(await tx.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } }))) throw new NotFoundError("Tenant");
    const hold = await tx.legalHold.create({ data: { tenantId: input.tenantId ?? null, subjectHash: input.user ? hashSubject(input.user) : null, subjectHashes: input.user ? subjectHashes(input.user) : [], reason: input.reason, createdByEmail: ctx.actor.email } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.hold.place", targetType: "legal_hold", targetId: hold.id, after: hold });
    return hold;
  });
}

export async function releaseHold(ctx: ActorContext, input: HoldReleaseInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.legalHold.findUnique({ where: { id: input.id } });
    if (!before) throw new NotFoundError("Legal hold");
    if (before.releasedAt) throw new ConflictError("This hold was already released.", { current: before });
    const after = await tx.legalHold.update({ where: { id: input.id }, data: { releasedAt: new Date(), releasedByEmail: ctx.actor.email } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.hold.release", targetType: "legal_hold", targetId: input.id, before, after });
    return after;
  });
}
