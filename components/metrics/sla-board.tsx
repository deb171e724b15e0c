"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useLocale, useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { Empty, Loading } from "@/components/ui/field";
import { MetricsOff } from "./metrics-off";
import { AlertTable } from "@/components/alerts/alert-table";
import { useMetricsOffWhy } from "./chart-text";
import { alertStateText, budgetText, burnText, COLOUR_CLASS, tightestBudget } from "./sla-format";

/** Every endpoint's SLA at a glance: green / amber / red, budget left, burn rate, alerts. */
export function SlaBoard() {
  const trpc = useTRPC();
  const sla = useQuery(trpc.metrics.sla.queryOptions(undefined, { refetchInterval: 5000 }));
  const t = useTranslations("metrics.sla");
  const to = useTranslations("metrics.off");
  const why = useMetricsOffWhy();
  const locale = useLocale();
  if (sla.isPending) return <Loading what={t("boardWhat")} />;
  if (!sla.data) return null;
  const { endpoints, prometheus, budgetWindow } = sla.data;
  return (
    <>
      <div className="panel" role="region" aria-label={t("boardWhat")}>
        <h2>{t("boardTitle", { window: budgetWindow })}</h2>
        {!prometheus.available && <MetricsOff what={to("sla")} reason={t("boardOffReason", { reason: why(prometheus.reason) })} />}
        {endpoints.length === 0 ? (
          <Empty title={t("noEndpoints")}>{t("noEndpointsHint")}</Empty>
        ) : (
          <table>
            <thead>
              <tr>
                <th>{t("colEndpoint")}</th>
                <th>{t("colStatus")}</th>
                <th>{t("colBudget")}</th>
                <th>{t("colBurn")}</th>
                <th>{t("colAlerts")}</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((e) => {
                const worstBurn = Math.max(...e.slis.map((s) => s.burnRate ?? -1));
                const alerts = e.slis.flatMap((s) => s.alerts.map((a) => ({ ...a, sli: t(`sli.${s.kind}`) })));
                return (
                  <tr key={e.endpointId} data-testid={`sla-${e.slug}`}>
                    <td>
                      <Link href={`/endpoints/${e.endpointId}`}>{e.name}</Link> <code>{e.slug}</code>
                    </td>
                    <td>
                      <span className={COLOUR_CLASS[e.status]} data-colour={e.status}>
                        {t(`colour.${e.status}`)}
                      </span>
                    </td>
                    <td>{budgetText(tightestBudget(e), t)}</td>
                    <td>{burnText(worstBurn >= 0 ? worstBurn : null, locale)}</td>
                    <td>
                      {alerts.length === 0 ? (
                        <span className="muted">{t("none")}</span>
                      ) : (
                        alerts.map((a) => (
                          <span key={`${a.sli}-${a.name}`} className={a.state === "firing" ? "badge badge-danger" : "badge badge-warn"} style={{ marginRight: 4 }}>
                            {a.sli}: {a.name} {alertStateText(a.state, t)}
                          </span>
                        ))
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
      <AlertTable firingOnly title={t("firingAlerts")} />
    </>
  );
}
