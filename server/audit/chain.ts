import type { Db } from "../db/client.ts";
import { pgPool } from "../db/pg-pool.ts";
import type { Actor } from "../auth/actor.ts";
import { recordAudit } from "./record.ts";
import { verifyChains } from "./seal/verify.ts";
import { chainFinding, openFromFinding } from "../kvkk/breaches.ts";
import type { Locale } from "../shared/i18n/locales.ts";
import { translateServerMessage } from "../shared/i18n/server-messages.ts";

/**
 * The chain check from the UI: its outcome, naming the first bad segment, is itself an audit event
 * (in English, as stored); the page reads why a segment or a signed head fails in its language.
 */
export async function verifyChainFor(ctx: { db: Db; actor: Actor; ip: string | null; locale?: Locale }) {
  const report = await verifyChains(pgPool(ctx.db));
  await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "audit.verify", targetType: "seal", after: { ok: report.ok, rows: report.rows, firstBad: report.firstBad } });
  // A failed check is a possible breach (KVKK Art. 12(5)): the incident and its 72-hour clock open now.
  const finding = chainFinding(report.firstBad);
  const breachId = finding ? await openFromFinding(pgPool(ctx.db), finding) : null;
  const say = (text: string) => translateServerMessage(ctx.locale ?? "en", text);
  return { ...report, heads: { ...report.heads, problem: report.heads.problem && say(report.heads.problem) }, firstBad: report.firstBad && { ...report.firstBad, reason: say(report.firstBad.reason) }, breachId };
}

/** How far each chain is sealed, for the page's header. */
export async function sealStatus({ db }: { db: Db }) {
  const rows = await db.sealSegment.groupBy({ by: ["stream"], _count: true, _max: { start: true }, _sum: { rowCount: true } });
  return rows.map((r) => ({ stream: r.stream, segments: r._count, sealedThrough: r._max.start ? new Date(r._max.start.getTime() + 3_600_000) : null, rows: r._sum.rowCount ?? 0 }));
}
