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

interface HoldRow {
  tenantId: string | null;
  subjectHash: string | null;
  subjectHashes: string[];
  reason: string;
}

/** What one hold keeps: everything, a tenant, or a person under every key version held when the hold was placed. */
function scopeOf(h: HoldRow): { all: true } | { tenantId: string } | { hashes: string[] } {
  if (h.subjectHash || h.subjectHashes.length) return { hashes: h.subjectHashes.length ? h.subjectHashes : [h.subjectHash!] };
  return h.tenantId ? { tenantId: h.tenantId } : { all: true };
}

async function activeHoldRows(client: pg.PoolClient): Promise<HoldRow[]> {
  const r = await client.query<HoldRow>(`SELECT "tenantId", "subjectHash", "subjectHashes", reason FROM "LegalHold" WHERE "releasedAt" IS NULL ORDER BY "createdAt"`);
  return r.rows;
}

export async function activeHolds(client: pg.PoolClient): Promise<Holds> {
  const scopes = (await activeHoldRows(client)).map(scopeOf);
  return {
    all: scopes.some((s) => "all" in s),
    tenants: new Set(scopes.flatMap((s) => ("tenantId" in s ? [s.tenantId] : []))),
    subjects: scopes.flatMap((s) => ("hashes" in s ? s.hashes : [])),
    subjectHolds: scopes.filter((s) => "hashes" in s).length,
  };
}

/** The holds that keep one person's rows in one tenant: on everything, on the tenant, or on the person. Their reasons, oldest first. */
export async function holdsOn(client: pg.PoolClient, tenantId: string, hashes: string[]): Promise<string[]> {
  return (await activeHoldRows(client))
    .filter((h) => {
      const s = scopeOf(h);
      return "all" in s || ("tenantId" in s ? s.tenantId === tenantId : s.hashes.some((x) => hashes.includes(x)));
    })
    .map((h) => h.reason);
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
