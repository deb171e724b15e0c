import type { PrismaClient } from "../db/generated/client.ts";
import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import { checkOutboundHost, checkOutboundUrl } from "../http/outbound.ts";
import { renderCheckedConfig, receiverRows, syncAlertmanagerConfig, type AlertmanagerTarget } from "./config-sync.ts";
import type { ReceiverInput } from "./schemas.ts";

type Ctx = ActorContext & { alertmanager: AlertmanagerTarget | null };

/** Receivers as the UI and the audit log see them: an SMTP password never leaves the database. */
export function redactReceiver<T extends { settings: unknown }>(r: T): T {
  const s = { ...(r.settings as Record<string, unknown>) };
  if (s.password) s.password = "(set)";
  return { ...r, settings: s };
}

export async function listReceivers({ db }: { db: PrismaClient }) {
  const rows = await db.alertReceiver.findMany({ orderBy: { name: "asc" } });
  return rows.map(redactReceiver);
}

/**
 * Adds or replaces a receiver. The whole alertmanager.yml is rendered with it and checked by amtool
 * inside the transaction, so a receiver Alertmanager would refuse is never saved; the audit record
 * lands with the change; then Alertmanager reloads.
 */
export async function saveReceiver(ctx: Ctx, input: ReceiverInput & { id?: string; expectedRevision?: number }) {
  await checkReceiverTarget(input);
  const saved = await ctx.db.$transaction(async (tx) => {
    const before = input.id ? await tx.alertReceiver.findUnique({ where: { id: input.id } }) : null;
    if (input.id && !before) throw new NotFoundError("Receiver");
    if (before && before.revision !== input.expectedRevision) throw new ConflictError(`Receiver ${before.name} was changed by someone else; reload to see the current settings.`);
    const settings: Record<string, string | boolean | null> = { ...(input.settings as Record<string, string | boolean | null>) };
    // The form shows "(set)" for a stored password: keep it unless a new one is typed.
    if (before && settings.password === "(set)") settings.password = (before.settings as Record<string, string | null>).password ?? null;
    const data = { name: input.name, kind: input.kind, settings, endpointSlugs: input.endpointSlugs, severities: input.severities };
    const after = before
      ? await tx.alertReceiver.update({ where: { id: before.id }, data: { ...data, revision: { increment: 1 } } })
      : await tx.alertReceiver.create({ data }).catch((e: unknown) => {
          if ((e as { code?: string }).code === "P2002") throw new ConflictError(`A receiver named ${input.name} already exists.`, { field: "name" });
          throw e;
        });
    await renderCheckedConfig(await receiverRows(tx), ctx.alertmanager);
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: before ? "alert.receiver.update" : "alert.receiver.create", targetType: "alert-receiver", targetId: after.id, before: before ? redactReceiver(before) : undefined, after: redactReceiver(after) });
    return after;
  });
  const alertmanager = await syncAlertmanagerConfig(ctx.db, ctx.alertmanager);
  return { receiver: redactReceiver(saved), alertmanager };
}

/** Alertmanager calls what a receiver names: never cloud metadata, Kule's own ports or an unallowed private network. */
async function checkReceiverTarget(input: ReceiverInput) {
  if (input.kind !== "email") return checkOutboundUrl(input.settings.url, "settings");
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(input.settings.smarthost);
  if (m) await checkOutboundHost(m[1]!, Number(m[2]), "settings");
}

export async function deleteReceiver(ctx: Ctx, input: { id: string }) {
  await ctx.db.$transaction(async (tx) => {
    const before = await tx.alertReceiver.findUnique({ where: { id: input.id } });
    if (!before) throw new NotFoundError("Receiver");
    await tx.alertReceiver.delete({ where: { id: before.id } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "alert.receiver.delete", targetType: "alert-receiver", targetId: before.id, before: redactReceiver(before) });
  });
  return { alertmanager: await syncAlertmanagerConfig(ctx.db, ctx.alertmanager) };
}
