"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { TURKEY_REGION_PREFIX } from "@/server/shared/regions";
import { TransferRegister } from "./transfer-register";
import { RegionVerification } from "./region-verification";

const month = (d: Date | string) => new Date(d).toISOString().slice(0, 7);

/** Which regions served each tenant's calls per month; calls abroad without a safeguard are incidents. And the transfer register. */
export function ResidencyPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const [range] = useState(() => {
    const to = new Date(Date.now() + 86_400_000);
    return { from: new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() - 2, 1)), to };
  });
  const map = useQuery(trpc.kvkk.residency.queryOptions(range));
  return (
    <section className="panel" aria-label="Data residency">
      <h2>Data residency, {month(range.from)} to now</h2>
      {map.data?.incidents.length ? (
        <p className="error" role="alert" aria-label="Residency incidents">
          {map.data.incidents.length} incident(s): calls served outside Turkey with no safeguard covering them (KVKK Art. 9) —{" "}
          {map.data.incidents.map((i) => `${i.tenantSlug} ${month(i.month)} ${i.region} (${i.uncovered})`).join(", ")}.
        </p>
      ) : (
        map.data && <p className="muted">No incidents: every call was served in Turkey ({TURKEY_REGION_PREFIX}*) or in a country a safeguard covered for its tenant.</p>
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
                  {c.tenantSlug} {c.kvkk && <span className="badge badge-kvkk">Turkey only</span>}
                </td>
                <td>{month(c.month)}</td>
                <td>{c.incident ? <span className="badge badge-danger">{c.region}</span> : c.region}</td>
                <td>{c.calls.toLocaleString("en")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <TransferRegister range={range} />
      <RegionVerification canWrite={canWrite} />
    </section>
  );
}
