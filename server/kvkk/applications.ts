import type { ActorContext } from "../auth/actor.ts";
import { ownTenant, tenantWhere } from "../auth/scope.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.ts";
import { hashSubject, subjectHashes as hashesOf } from "../call-log/subject-hash.ts";
import type { DbTx } from "../db/client.ts";
import { destroySubject } from "./erasure.ts";
import type { Locale } from "../shared/i18n/locales.ts";
import { translatorFor } from "../shared/i18n/translator.ts";
import { formatDate, formatNumber } from "../shared/i18n/format.ts";
import type { ApplicationAnswerInput, ApplicationEraseInput, ApplicationOpenInput, ApplicationRefuseInput } from "./schemas.ts";

/** KVKK Art. 13(2): an application is answered within 30 days of receipt. */
export const ANSWER_DAYS = 30;
const DAY = 86_400_000;

/** Records an application with its intake; the rows it covers are counted in the controller's (tenant's) call log only. */
export async function openApplication(ctx: ActorContext, input: ApplicationOpenInput) {
  const tenantId = ownTenant(ctx.actor) ?? input.tenantId;
  if (!tenantId) throw new InvalidInputError("tenantId", "the tenant (data controller) the application is to: one person is never searched across tenants");
  return ctx.db.$transaction(async (tx) => {
    if (!(await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }))) throw new NotFoundError("Tenant");
    const subjectHash = hashSubject(input.user);
    const subjectHashes = hashesOf(input.user);
    const rowsFound = await tx.callLog.count({ where: { tenantId, userHash: { in: subjectHashes } } });
    const app = await tx.dataSubjectRequest.create({
      data: {
        subjectHash,
        subjectHashes,
        tenantId,
        reference: input.reference ?? null,
        rowsFound,
        requestedById: ctx.actor.userId,
        requestedByEmail: ctx.actor.email,
        channel: input.channel,
        receivedAt: input.receivedAt,
        identityCheck: input.identityCheck,
        right: input.right,
        dueAt: new Date(input.receivedAt.getTime() + ANSWER_DAYS * DAY),
      },
    });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.application.open", targetType: "subject_request", targetId: app.id, after: { ...app, subjectHash: undefined, subjectHashes: undefined } });
    return app;
  });
}

/** The caller's applications (a tenant: its own), the ones due soonest first, with the days left. */
export async function listApplications(ctx: ActorContext) {
  const rows = await ctx.db.dataSubjectRequest.findMany({ where: { ...tenantWhere(ctx.actor), channel: { not: null } }, orderBy: [{ dueAt: "asc" }], take: 200, omit: { subjectHash: true, subjectHashes: true } });
  const now = Date.now();
  return rows.map((r) => {
    const open = r.status === "received" || r.status === "in_progress";
    const daysLeft = r.dueAt ? Math.ceil((r.dueAt.getTime() - now) / DAY) : null;
    return { ...r, open, daysLeft, overdue: open && daysLeft !== null && daysLeft < 0 };
  });
}

/** Closes an open application, only against the version the caller read. */
async function close(tx: DbTx, ctx: ActorContext, id: string, expectedUpdatedAt: Date, action: string, data: { status: "answered" | "refused"; answer?: string; refusalReason?: string }) {
  const before = await tx.dataSubjectRequest.findFirst({ where: { id, ...tenantWhere(ctx.actor), channel: { not: null } } });
  if (!before) throw new NotFoundError("Application");
  if (before.status === "answered" || before.status === "refused") throw new ConflictError(`This application was already ${before.status}.`, { current: before });
  const { count } = await tx.dataSubjectRequest.updateMany({ where: { id, updatedAt: expectedUpdatedAt }, data: { ...data, answeredAt: new Date(), answeredByEmail: ctx.actor.email, closedAt: new Date() } });
  if (!count) throw new ConflictError("Someone changed this application since you opened it; reload and try again.", { current: before });
  const after = await tx.dataSubjectRequest.findUniqueOrThrow({ where: { id } });
  await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action, targetType: "subject_request", targetId: id, before: { status: before.status }, after: { status: after.status, answer: after.answer, refusalReason: after.refusalReason } });
  return after;
}

export function answerApplication(ctx: ActorContext, input: ApplicationAnswerInput) {
  return ctx.db.$transaction((tx) => close(tx, ctx, input.id, input.expectedUpdatedAt, "kvkk.application.answer", { status: "answered", answer: input.answer }));
}

/** A refusal states its reason, which the applicant is told (Art. 13(3)). */
export function refuseApplication(ctx: ActorContext, input: ApplicationRefuseInput) {
  return ctx.db.$transaction((tx) => close(tx, ctx, input.id, input.expectedUpdatedAt, "kvkk.application.refuse", { status: "refused", refusalReason: input.reason }));
}

/**
 * Erases the applicant's rows in the controller's call log (with a destruction record), then
 * answers the application saying so. A tenant erases for its own applications.
 */
export async function eraseForApplication(ctx: ActorContext & { locale?: Locale }, input: ApplicationEraseInput) {
  const app = await ctx.db.dataSubjectRequest.findFirst({ where: { id: input.id, ...tenantWhere(ctx.actor), channel: { not: null } } });
  if (!app) throw new NotFoundError("Application");
  if (app.updatedAt.getTime() !== input.expectedUpdatedAt.getTime()) throw new ConflictError("Someone changed this application since you opened it; reload and try again.", { current: app });
  if (app.status === "answered" || app.status === "refused") throw new ConflictError(`This application was already ${app.status}.`, { current: app });
  const rec = await destroySubject(ctx, { requestId: app.id, method: input.method });
  const fresh = await ctx.db.dataSubjectRequest.findUniqueOrThrow({ where: { id: app.id } });
  // The answer is sent to the applicant as stored: in the language chosen for it, else the answerer's.
  const locale = input.answerLocale ?? ctx.locale ?? "en";
  const t = translatorFor(locale);
  // Under a legal hold nothing is erased: the application is refused with the reason (Art. 13(3)).
  if (rec.held.length) {
    const refused = await ctx.db.$transaction((tx) => close(tx, ctx, app.id, fresh.updatedAt, "kvkk.application.refuse", { status: "refused", refusalReason: t("kvkkTexts.erasureHeld") }));
    return { application: refused, destruction: rec };
  }
  const kept = rec.unlinked || rec.keptWhole ? ` ${t("kvkkTexts.erasureKept", { unlinked: formatNumber(locale, rec.unlinked + rec.keptWhole), whole: rec.keptWhole, days: rec.trafficLogMinDays ?? 0, until: formatDate(locale, rec.keptUntil!) })}` : "";
  const answer = t("kvkkTexts.erasureAnswer", { method: input.method, rows: formatNumber(locale, rec.rowCount), id: rec.id ?? "" }) + kept;
  const answered = await ctx.db.$transaction((tx) => close(tx, ctx, app.id, fresh.updatedAt, "kvkk.application.answer", { status: "answered", answer }));
  return { application: answered, destruction: rec };
}
