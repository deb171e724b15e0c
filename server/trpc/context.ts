import type { PrismaClient } from "../db/generated/client.ts";
import type { Actor } from "../auth/actor.ts";
import { membershipActive, membershipInclude } from "../auth/membership.ts";
import type { Drivers } from "../cluster/drivers.ts";
import type { PrometheusClient } from "../metrics/prometheus-client.ts";
import type { AlertmanagerTarget } from "../alerts/config-sync.ts";
import type { Locale } from "../shared/i18n/locales.ts";

export interface Context {
  db: PrismaClient;
  actor: Actor | null;
  ip: string | null;
  drivers: Drivers;
  prometheus: PrometheusClient;
  /** Tests give their own; unset: the app's (server/alerts/config-sync.ts, from the environment). */
  alertmanager?: AlertmanagerTarget | null;
  /** The language error messages are written in; English when unset (tests, scripts). */
  locale?: Locale;
}

/** Loads the actor behind a session's user id; a deleted user or membership, or an offboarded tenant, signs them out. */
export async function loadActor(db: PrismaClient, userId: string | null | undefined): Promise<Actor | null> {
  if (!userId) return null;
  const user = await db.user.findUnique({ where: { id: userId }, include: membershipInclude });
  if (!user?.membership || !membershipActive(user.membership)) return null;
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    role: user.membership.role,
    tenantId: user.membership.tenantId,
    locale: user.locale,
  };
}
