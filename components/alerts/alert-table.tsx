"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { durationText, rangeFor, windowsText, type AlertRow } from "./alert-format";

/**
 * Alerts as Alertmanager delivered them to Kule: one endpoint's history (its page), or what is
 * firing now (the overview and the SLA board). Refreshed every 5 s.
 */
export function AlertTable({ endpointId, firingOnly, title }: { endpointId?: string; firingOnly?: boolean; title: string }) {
  const trpc = useTRPC();
  const alerts = useQuery(trpc.alert.list.queryOptions({ endpointId, status: firingOnly ? "firing" : undefined, limit: 50 }, { ...PANEL_QUERY, refetchInterval: 5000 }));
  const t = useTranslations("alerts.table");
  const empty = firingOnly ? (
    <p className="muted">{t("nothingFiring")}</p>
  ) : (
    <Empty title={t("noAlerts")}>{t("noAlertsHint")}</Empty>
  );
  return (
    <div className="panel" role="region" aria-label={title}>
      <h2>{title}</h2>
      <QueryState query={alerts} what={t("what")} empty={empty}>
        {(rows) => <Rows rows={rows} showEndpoint={!endpointId} />}
      </QueryState>
    </div>
  );
}

function Rows({ rows, showEndpoint }: { rows: AlertRow[]; showEndpoint: boolean }) {
  const now = new Date();
  const t = useTranslations("alerts.table");
  const tf = useTranslations("alerts.format");
  const ts = useTranslations("alerts.severity");
  const tsum = useTranslations("alerts.summary");
  const fmt = useFormat();
  return (
    <table>
      <thead>
        <tr>
          <th>{t("colState")}</th>
          <th>{t("colAlert")}</th>
          {showEndpoint && <th>{t("colEndpoint")}</th>}
          <th>{t("colSlo")}</th>
          <th>{t("colSince")}</th>
          <th>{t("colCharts")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((a) => (
          <tr key={a.id} data-testid={`alert-${a.name}`}>
            <td>
              <span className={a.status === "firing" ? "badge badge-danger" : "badge badge-ok"}>{a.status === "firing" ? t("firing") : t("resolved")}</span>{" "}
              {a.severity && <span className="badge">{ts.has(a.severity as "page") ? ts(a.severity as "page") : a.severity}</span>}
            </td>
            <td>
              <b>{a.name}</b>
              {(a.text || a.summary) && <div className="muted">{a.text ? tsum(a.text.key, a.text.values) : a.summary}</div>}
              {a.subject && !a.endpoint && <div className="muted">{a.subject}</div>}
            </td>
            {showEndpoint && <td>{a.endpoint ? <Link href={`/endpoints/${a.endpoint.id}`}>{a.endpoint.name}</Link> : (a.endpointSlug ?? "—")}</td>}
            <td>{[a.slo, windowsText(a)].filter(Boolean).join(" · ") || "—"}</td>
            <td title={a.startsAt.toISOString()}>
              {fmt.dateTime(a.startsAt)}
              <div className="muted">{a.status === "firing" ? t("firingFor", { duration: durationText(a.startsAt, now, tf) }) : t("lasted", { duration: durationText(a.startsAt, a.endsAt ?? now, tf) })}</div>
            </td>
            <td>{a.endpoint ? <Link href={`/endpoints/${a.endpoint.id}?range=${rangeFor(a.startsAt, now)}#charts`}>{t("chartsThen")}</Link> : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
