import type pg from "pg";
import type { ActorContext } from "../auth/actor.ts";
import { recordAudit, recordAuditSql } from "../audit/record.ts";
import { pgPool } from "../db/pg-pool.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import { createId } from "./id.ts";
import type { BreachCreateInput, BreachGetInput, BreachUpdateInput } from "./schemas.ts";
import type { BreachIncident } from "../db/generated/client.ts";
import type { Locale } from "../shared/i18n/locales.ts";
import { translatorFor } from "../shared/i18n/translator.ts";
import { translateServerMessage } from "../shared/i18n/server-messages.ts";
import { formatDateTime, formatNumber } from "../shared/i18n/format.ts";

/** Board decision 2019/10: the Board is notified within 72 hours of the controller becoming aware. */
export const BOARD_HOURS = 72;
const HOUR = 3_600_000;

export interface Finding {
  detector: "chain_check" | "residency";
  key: string;
  title: string;
  description: string;
  occurredFrom: Date | null;
  occurredTo: Date | null;
}

/**
 * Opens an incident for a detector's finding, once per finding (its key), with the 72-hour clock
 * running from now, the moment Kule became aware; an alert is requested (delivered by the
 * Alertmanager path of the alerts issue once wired, logged until then).
 */
export async function openFromFinding(pool: pg.Pool, f: Finding, now = new Date()) {
  const db = await pool.connect();
  try {
    await db.query("BEGIN");
    const id = await insertFinding(db, f, now);
    await db.query("COMMIT");
    return id;
  } catch (e) {
    await db.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    db.release();
  }
}

export async function insertFinding(db: pg.PoolClient, f: Finding, now: Date) {
  const id = createId();
  const r = await db.query(
    `INSERT INTO "BreachIncident" (id, title, detector, "detectorKey", "awareAt", "boardDueAt", "occurredFrom", "occurredTo", description, "alertRequestedAt", "updatedAt")
     VALUES ($1, $2, $3, $4, $5::timestamptz AT TIME ZONE 'UTC', $6::timestamptz AT TIME ZONE 'UTC', $7::timestamptz AT TIME ZONE 'UTC', $8::timestamptz AT TIME ZONE 'UTC', $9, $5::timestamptz AT TIME ZONE 'UTC', now())
     ON CONFLICT ("detectorKey") DO NOTHING`,
    [id, f.title, f.detector, f.key, now, new Date(now.getTime() + BOARD_HOURS * HOUR), f.occurredFrom, f.occurredTo, f.description],
  );
  if (!r.rowCount) return null;
  await recordAuditSql(db, { actor: null, action: "kvkk.breach.detected", targetType: "breach", targetId: id, after: { ...f, awareAt: now } });
  console.error(`[kvkk] possible personal-data breach ${id} (${f.detector}): ${f.title}; the Board is due by ${new Date(now.getTime() + BOARD_HOURS * HOUR).toISOString()}`);
  return id;
}

/** The detector on a failed chain check: the first segment that no longer matches is a possible breach of integrity. */
export function chainFinding(firstBad: { stream: string; start: string; end: string; reason: string } | null): Finding | null {
  if (!firstBad) return null;
  return {
    detector: "chain_check",
    key: `chain:${firstBad.stream}:${firstBad.start}:${firstBad.reason}`,
    title: `The ${firstBad.stream === "call_log" ? "call log" : "audit log"} no longer matches its seal from ${firstBad.start}`,
    description: `The chain check found: ${firstBad.reason}. Rows may have been changed, removed or added outside Kule.`,
    occurredFrom: new Date(firstBad.start),
    occurredTo: new Date(firstBad.end),
  };
}

/**
 * The list, with each title also in the reader's language (shownTitle: what the chain check wrote
 * is stored in English) beside the stored one, which the page sends back unchanged when it edits.
 */
export async function listBreaches({ db, locale }: ActorContext & { locale?: Locale }) {
  const rows = await db.breachIncident.findMany({ orderBy: { awareAt: "desc" }, take: 100 });
  const now = Date.now();
  return rows.map((b) => ({ ...b, shownTitle: translateServerMessage(locale ?? "en", b.title), hoursLeft: b.boardNotifiedAt ? null : Math.floor((b.boardDueAt.getTime() - now) / HOUR), late: !b.boardNotifiedAt && b.boardDueAt.getTime() < now }));
}

/**
 * The tenants and identified end users a period touches. A `user` identifier is kept as a one-way
 * hash under the key version current when the call was logged, so a person who called before and
 * after a rotation has one hash per version and the plaintext to re-derive them is not kept: the
 * count is a range, from the most distinct hashes under any one version (nobody is counted twice)
 * to the distinct hashes of all versions (nobody called under two). Within one version it is exact.
 */
async function affectedBy(pool: pg.Pool, from: Date, to: Date) {
  const r = await pool.query<{ tenantId: string; slug: string | null; calls: string; atLeast: string; atMost: string; versions: string }>(
    `WITH rows AS (SELECT c."tenantId", c."userHash", coalesce(c."userHashKeyVersion", '') AS v FROM "CallLog" c
                    WHERE c."startedAt" >= $1::timestamptz AT TIME ZONE 'UTC' AND c."startedAt" < $2::timestamptz AT TIME ZONE 'UTC'),
          per AS (SELECT "tenantId", v, count(DISTINCT "userHash") AS n FROM rows WHERE "userHash" IS NOT NULL GROUP BY 1, 2)
     SELECT r."tenantId", t.slug, count(*) AS calls, coalesce((SELECT max(n) FROM per WHERE per."tenantId" = r."tenantId"), 0) AS "atLeast",
            count(DISTINCT r."userHash") AS "atMost", count(DISTINCT r.v) FILTER (WHERE r."userHash" IS NOT NULL) AS versions
       FROM rows r LEFT JOIN "Tenant" t ON t.id = r."tenantId" GROUP BY 1, 2 ORDER BY 3 DESC`,
    [from, to],
  );
  return r.rows.map((x) => ({ tenantId: x.tenantId, tenantSlug: x.slug, calls: Number(x.calls), subjects: Number(x.atLeast), subjectsAtMost: Number(x.atMost), keyVersions: Number(x.versions) }));
}
type Affected = Awaited<ReturnType<typeof affectedBy>>[number];

/** One incident with the tenants and data subjects its period touches, found in the call log, and a notice drafted for each tenant (the controller). */
export async function getBreach(ctx: ActorContext & { locale?: Locale }, { id, noticeLocale }: BreachGetInput) {
  const b = await ctx.db.breachIncident.findUnique({ where: { id } });
  if (!b) throw new NotFoundError("Breach incident");
  const affected = b.occurredFrom && b.occurredTo ? await affectedBy(pgPool(ctx.db), b.occurredFrom, b.occurredTo) : [];
  const locale = noticeLocale ?? ctx.locale ?? "en";
  const notices = affected.map((a) => ({ tenantId: a.tenantId, locale, text: breachNotice(locale, b, a) }));
  await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.breach.read", targetType: "breach", targetId: id });
  return { incident: b, affected, notices };
}

/** A notice to one tenant (the controller) in the language chosen for it: what the chain check wrote in it too, what the operator typed (title, measures…) as typed. */
function breachNotice(locale: Locale, b: BreachIncident, a: Affected) {
  const t = translatorFor(locale);
  const at = (d: Date) => formatDateTime(locale, d);
  const n = (k: Parameters<typeof t>[0], v?: Record<string, string>) => t(k, v);
  return [
    n("kvkkTexts.breachNotice.to", { tenant: a.tenantSlug ?? a.tenantId }),
    n("kvkkTexts.breachNotice.aware", { awareAt: at(b.awareAt), title: translateServerMessage(locale, b.title) }),
    translateServerMessage(locale, b.description),
    a.subjectsAtMost > a.subjects
      ? n("kvkkTexts.breachNotice.periodRange", { from: at(b.occurredFrom!), to: at(b.occurredTo!), calls: formatNumber(locale, a.calls), subjects: formatNumber(locale, a.subjects), subjectsAtMost: formatNumber(locale, a.subjectsAtMost), versions: formatNumber(locale, a.keyVersions) })
      : n("kvkkTexts.breachNotice.period", { from: at(b.occurredFrom!), to: at(b.occurredTo!), calls: formatNumber(locale, a.calls), subjects: formatNumber(locale, a.subjects) }),
    b.dataCategories ? n("kvkkTexts.breachNotice.data", { categories: b.dataCategories }) : n("kvkkTexts.breachNotice.dataDefault"),
    b.measures ? n("kvkkTexts.breachNotice.measures", { measures: b.measures }) : n("kvkkTexts.breachNotice.measuresDefault"),
    n("kvkkTexts.breachNotice.board", { due: at(b.boardDueAt), contact: b.contact ?? n("kvkkTexts.breachNotice.contactDefault") }),
  ].join("\n");
}

export async function createBreach(ctx: ActorContext, input: BreachCreateInput) {
  return ctx.db.$transaction(async (tx) => {
    const b = await tx.breachIncident.create({ data: { ...input, detector: "manual", boardDueAt: new Date(input.awareAt.getTime() + BOARD_HOURS * HOUR), createdByEmail: ctx.actor.email } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.breach.create", targetType: "breach", targetId: b.id, after: b });
    return b;
  });
}

export async function updateBreach(ctx: ActorContext, input: BreachUpdateInput) {
  const { id, expectedUpdatedAt, ...data } = input;
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.breachIncident.findUnique({ where: { id } });
    if (!before) throw new NotFoundError("Breach incident");
    const { count } = await tx.breachIncident.updateMany({ where: { id, updatedAt: expectedUpdatedAt }, data });
    if (!count) throw new ConflictError("Someone changed this incident since you opened it; reload and try again.", { current: before });
    const after = await tx.breachIncident.findUniqueOrThrow({ where: { id } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.breach.update", targetType: "breach", targetId: id, before, after });
    return after;
  });
}
