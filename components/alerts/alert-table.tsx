"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
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
  const empty = firingOnly ? (
    <p className="muted">Nothing firing. Alerts reach this list through Alertmanager; receivers and silences are under Alerts.</p>
  ) : (
    <Empty title="No alerts yet">Burn-rate, replica and GPU alerts appear here when Alertmanager delivers them, and stay as history once resolved.</Empty>
  );
  return (
    <div className="panel" role="region" aria-label={title}>
      <h2>{title}</h2>
      <QueryState query={alerts} what="alerts" empty={empty}>
        {(rows) => <Rows rows={rows} showEndpoint={!endpointId} />}
      </QueryState>
    </div>
  );
}

function Rows({ rows, showEndpoint }: { rows: AlertRow[]; showEndpoint: boolean }) {
  const now = new Date();
  return (
    <table>
      <thead>
        <tr>
          <th>State</th>
          <th>Alert</th>
          {showEndpoint && <th>Endpoint</th>}
          <th>SLO · windows</th>
          <th>Since</th>
          <th>Charts</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((a) => (
          <tr key={a.id} data-testid={`alert-${a.name}`}>
            <td>
              <span className={a.status === "firing" ? "badge badge-danger" : "badge badge-ok"}>{a.status === "firing" ? "Firing" : "Resolved"}</span>{" "}
              {a.severity && <span className="badge">{a.severity}</span>}
            </td>
            <td>
              <b>{a.name}</b>
              {a.summary && <div className="muted">{a.summary}</div>}
              {a.subject && !a.endpoint && <div className="muted">{a.subject}</div>}
            </td>
            {showEndpoint && <td>{a.endpoint ? <Link href={`/endpoints/${a.endpoint.id}`}>{a.endpoint.name}</Link> : (a.endpointSlug ?? "—")}</td>}
            <td>{[a.slo, windowsText(a)].filter(Boolean).join(" · ") || "—"}</td>
            <td title={a.startsAt.toISOString()}>
              {a.startsAt.toLocaleString()}
              <div className="muted">{a.status === "firing" ? `firing for ${durationText(a.startsAt, now)}` : `lasted ${durationText(a.startsAt, a.endsAt ?? now)}`}</div>
            </td>
            <td>{a.endpoint ? <Link href={`/endpoints/${a.endpoint.id}?range=${rangeFor(a.startsAt, now)}#charts`}>charts then</Link> : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
