import type { PrismaClient } from "../db/generated/client.ts";
import type { AlertmanagerWebhookBody } from "./schemas.ts";

/** Alertmanager writes this for "not ended" (Go's zero time) and a firing alert's expected end. */
const endOf = (a: AlertmanagerWebhookBody["alerts"][number]) => {
  if (a.status !== "resolved") return null;
  const t = new Date(a.endsAt);
  return Number.isNaN(t.getTime()) || t.getUTCFullYear() < 2000 ? new Date() : t;
};

/**
 * Stores one webhook delivery: an alert's episode (fingerprint + startsAt) becomes one row, firing
 * until a delivery says resolved. Repeats (Alertmanager re-sends every repeat_interval, and after
 * a restart) update the same row, so a delivery can be replayed safely.
 */
export async function storeAlertmanagerWebhook(db: PrismaClient, body: AlertmanagerWebhookBody): Promise<{ stored: number }> {
  for (const a of body.alerts) {
    const l = a.labels;
    const startsAt = new Date(a.startsAt);
    const row = {
      name: l.alertname ?? "unnamed",
      status: a.status,
      severity: l.severity ?? null,
      endpointSlug: l.endpoint ?? l.kule_endpoint ?? null,
      slo: l.slo ?? null,
      longWindow: l.long_window ?? null,
      shortWindow: l.short_window ?? null,
      summary: a.annotations.summary ?? null,
      description: a.annotations.description ?? null,
      labels: l,
      annotations: a.annotations,
      endsAt: endOf(a),
      generatorUrl: a.generatorURL || null,
    };
    // A late "firing" repeat never reopens an episode already resolved.
    const existing = await db.alert.findUnique({ where: { fingerprint_startsAt: { fingerprint: a.fingerprint, startsAt } }, select: { status: true } });
    if (existing?.status === "resolved" && a.status === "firing") continue;
    await db.alert.upsert({
      where: { fingerprint_startsAt: { fingerprint: a.fingerprint, startsAt } },
      create: { fingerprint: a.fingerprint, startsAt, ...row },
      update: row,
    });
  }
  return { stored: body.alerts.length };
}
