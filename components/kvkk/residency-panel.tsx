"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { TURKEY_REGION_PREFIX } from "@/server/shared/regions";

const month = (d: Date | string) => new Date(d).toISOString().slice(0, 7);

/** Which regions served each tenant's calls per month; KVKK tenants abroad are incidents. And the transfer register. */
export function ResidencyPanel() {
  const trpc = useTRPC();
  const [range] = useState(() => {
    const to = new Date(Date.now() + 86_400_000);
    return { from: new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() - 2, 1)), to };
  });
  const map = useQuery(trpc.kvkk.residency.queryOptions(range));
  const transfers = useQuery(trpc.kvkk.transfers.queryOptions(range));
  return (
    <section className="panel" aria-label="Data residency">
      <h2>Data residency, {month(range.from)} to now</h2>
      {map.data?.incidents.length ? (
        <p className="error" role="alert" aria-label="Residency incidents">
          {map.data.incidents.length} incident(s): a KVKK tenant&apos;s calls were served outside Turkey —{" "}
          {map.data.incidents.map((i) => `${i.tenantSlug} ${month(i.month)} ${i.region} (${i.calls})`).join(", ")}.
        </p>
      ) : (
        map.data && <p className="muted">No incidents: every KVKK tenant&apos;s call was served in {TURKEY_REGION_PREFIX}* regions.</p>
      )}
      {!map.data?.cells.length ? (
        <Empty title="No calls in this period" />
      ) : (
        <table aria-label="Data map">
          <thead>
            <tr>
              <th>Tenant</th>
              <th>Month</th>
              <th>Region</th>
              <th>Calls</th>
            </tr>
          </thead>
          <tbody>
            {map.data.cells.map((c) => (
              <tr key={`${c.tenantId}-${month(c.month)}-${c.region}`}>
                <td>
                  {c.tenantSlug} {c.kvkk && <span className="badge badge-kvkk">KVKK</span>}
                </td>
                <td>{month(c.month)}</td>
                <td>{c.incident ? <span className="badge badge-danger">{c.region}</span> : c.region}</td>
                <td>{c.calls.toLocaleString("en")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Transfer register (Article 9)</h3>
      {!transfers.data?.length ? (
        <p className="muted">No calls of any tenant were served outside Turkey in this period.</p>
      ) : (
        <table aria-label="Transfer register">
          <thead>
            <tr>
              <th>Tenant</th>
              <th>Region</th>
              <th>Month</th>
              <th>Calls</th>
            </tr>
          </thead>
          <tbody>
            {transfers.data.map((t) => (
              <tr key={`${t.tenantId}-${t.region}-${month(t.month)}`}>
                <td>{t.tenantSlug}</td>
                <td>{t.region}</td>
                <td>{month(t.month)}</td>
                <td>{t.calls.toLocaleString("en")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
