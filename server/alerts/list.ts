import type { PrismaClient } from "../db/generated/client.ts";
import { NotFoundError } from "../errors.ts";
import type { ListAlertsInput } from "./schemas.ts";
import { alertText } from "./alert-text.ts";

/**
 * Alerts as Alertmanager delivered them, firing first, newest first: all of them, one endpoint's
 * (its page's history), or only those firing (the overview, the SLA board).
 */
export async function listAlerts({ db }: { db: PrismaClient }, input: ListAlertsInput) {
  let endpointSlug: string | undefined;
  if (input.endpointId) {
    const e = await db.endpoint.findUnique({ where: { id: input.endpointId }, select: { slug: true } });
    if (!e) throw new NotFoundError("Endpoint");
    endpointSlug = e.slug;
  }
  const rows = await db.alert.findMany({
    where: { endpointSlug, status: input.status },
    orderBy: [{ status: "asc" }, { startsAt: "desc" }],
    take: input.limit,
    select: { id: true, name: true, status: true, severity: true, endpointSlug: true, slo: true, longWindow: true, shortWindow: true, summary: true, description: true, startsAt: true, endsAt: true, receivedAt: true, labels: true, annotations: true },
  });
  const slugs = [...new Set(rows.map((r) => r.endpointSlug).filter((s): s is string => !!s))];
  const endpoints = slugs.length ? await db.endpoint.findMany({ where: { slug: { in: slugs } }, select: { id: true, slug: true, name: true } }) : [];
  const bySlug = new Map(endpoints.map((e) => [e.slug, e]));
  return rows.map(({ labels, annotations, ...r }) => {
    const l = labels as Record<string, string>;
    return {
      ...r,
      /** The summary as a message key and values, when the alert is one of Kule's own. */
      text: alertText(r.name, l, annotations as Record<string, string>),
      endpoint: r.endpointSlug ? (bySlug.get(r.endpointSlug) ?? null) : null,
      /** What else the alert names (a GPU, a replica, a tenant), for the table. */
      subject: l.hostname ? `${l.hostname} GPU ${l.gpu ?? "?"}` : (l.kule_replica ?? l.tenant ?? null),
    };
  });
}
