import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { UnavailableError } from "../errors.ts";
import type { AlertmanagerTarget } from "./config-sync.ts";
import type { CreateSilenceInput } from "./schemas.ts";

type Ctx = ActorContext & { alertmanager: AlertmanagerTarget | null };

interface AmSilence {
  id: string;
  status: { state: "active" | "pending" | "expired" };
  matchers: { name: string; value: string; isRegex: boolean; isEqual?: boolean }[];
  startsAt: string;
  endsAt: string;
  createdBy: string;
  comment: string;
}

function target(ctx: { alertmanager: AlertmanagerTarget | null }): AlertmanagerTarget {
  if (!ctx.alertmanager) throw new UnavailableError("Alertmanager is off: start Kule with KULE_ALERTMANAGER_URL (npm run demo starts one when prometheus-alertmanager is installed).");
  return ctx.alertmanager;
}

async function am(t: AlertmanagerTarget, pathname: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(`${t.url}${pathname}`, { ...init, headers: { "content-type": "application/json" }, signal: AbortSignal.timeout(5000) });
  } catch {
    throw new UnavailableError(`Alertmanager at ${t.url} does not answer; try again when it is up.`);
  }
}

/** Silences Alertmanager holds (it is their owner), active and pending first. */
export async function listSilences(ctx: { alertmanager: AlertmanagerTarget | null }) {
  if (!ctx.alertmanager) return { available: false as const, silences: [] };
  const res = await am(ctx.alertmanager, "/api/v2/silences");
  const all = (await res.json()) as AmSilence[];
  const silences = all
    .filter((s) => s.status.state !== "expired")
    .sort((a, b) => a.endsAt.localeCompare(b.endsAt))
    .map((s) => ({ id: s.id, state: s.status.state, matchers: s.matchers.map((m) => `${m.name}${m.isRegex ? "=~" : "="}${m.value}`), startsAt: s.startsAt, endsAt: s.endsAt, createdBy: s.createdBy, comment: s.comment }));
  return { available: true as const, silences };
}

/** A maintenance window: Alertmanager mutes matching alerts until it ends. Audited once Alertmanager took it. */
export async function createSilence(ctx: Ctx, input: CreateSilenceInput) {
  const t = target(ctx);
  const matchers = [
    ...(input.endpointSlug ? [{ name: "endpoint", value: input.endpointSlug, isRegex: false, isEqual: true }] : []),
    ...(input.alertName ? [{ name: "alertname", value: input.alertName, isRegex: false, isEqual: true }] : []),
  ];
  const startsAt = new Date();
  const endsAt = new Date(startsAt.getTime() + input.minutes * 60_000);
  const body = { matchers, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString(), createdBy: ctx.actor?.email ?? "kule", comment: input.comment };
  const res = await am(t, "/api/v2/silences", { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new UnavailableError(`Alertmanager refused the silence (${res.status}): ${(await res.text()).trim().slice(0, 300)}`);
  const { silenceID } = (await res.json()) as { silenceID: string };
  // The silence lives in Alertmanager, so its record follows Alertmanager's answer rather than a transaction.
  await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "alert.silence.create", targetType: "alert-silence", targetId: silenceID, after: body });
  return { id: silenceID, endsAt };
}

export async function expireSilence(ctx: Ctx, input: { silenceId: string }) {
  const t = target(ctx);
  const res = await am(t, `/api/v2/silence/${encodeURIComponent(input.silenceId)}`, { method: "DELETE" });
  if (!res.ok) throw new UnavailableError(`Alertmanager could not expire silence ${input.silenceId} (${res.status}): ${(await res.text()).trim().slice(0, 300)}`);
  await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "alert.silence.expire", targetType: "alert-silence", targetId: input.silenceId });
  return { expired: input.silenceId };
}
