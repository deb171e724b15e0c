"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty, Loading } from "@/components/ui/field";
import { MetricsOff } from "./metrics-off";
import { AlertTable } from "@/components/alerts/alert-table";
import { budgetText, burnText, COLOUR_CLASS, COLOUR_TEXT, SLI_NAME, tightestBudget } from "./sla-format";

/** Every endpoint's SLA at a glance: green / amber / red, budget left, burn rate, alerts. */
export function SlaBoard() {
  const trpc = useTRPC();
  const sla = useQuery(trpc.metrics.sla.queryOptions(undefined, { refetchInterval: 5000 }));
  if (sla.isPending) return <Loading what="SLA status" />;
  if (!sla.data) return null;
  const { endpoints, prometheus, budgetWindow } = sla.data;
  return (
    <>
      <div className="panel" role="region" aria-label="SLA status">
        <h2>SLA status ({budgetWindow} rolling)</h2>
        {!prometheus.available && <MetricsOff what="SLA status and metrics" reason={`${prometheus.reason} The SLOs below are as set; their status is unknown until Prometheus answers.`} />}
        {endpoints.length === 0 ? (
          <Empty title="No endpoints yet">Create an endpoint to see its SLA here.</Empty>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Endpoint</th>
                <th>Status</th>
                <th>Error budget</th>
                <th>Burn rate (1 h)</th>
                <th>Alerts</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((e) => {
                const worstBurn = Math.max(...e.slis.map((s) => s.burnRate ?? -1));
                const alerts = e.slis.flatMap((s) => s.alerts.map((a) => ({ ...a, sli: SLI_NAME[s.kind] })));
                return (
                  <tr key={e.endpointId} data-testid={`sla-${e.slug}`}>
                    <td>
                      <Link href={`/endpoints/${e.endpointId}`}>{e.name}</Link> <code>{e.slug}</code>
                    </td>
                    <td>
                      <span className={COLOUR_CLASS[e.status]} data-colour={e.status}>
                        {COLOUR_TEXT[e.status]}
                      </span>
                    </td>
                    <td>{budgetText(tightestBudget(e))}</td>
                    <td>{burnText(worstBurn >= 0 ? worstBurn : null)}</td>
                    <td>
                      {alerts.length === 0 ? (
                        <span className="muted">none</span>
                      ) : (
                        alerts.map((a) => (
                          <span key={`${a.sli}-${a.name}`} className={a.state === "firing" ? "badge badge-danger" : "badge badge-warn"} style={{ marginRight: 4 }}>
                            {a.sli}: {a.name} {a.state}
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
      <AlertTable firingOnly title="Firing alerts" />
    </>
  );
}
