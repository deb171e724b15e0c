"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { formatDateTime } from "@/components/ui/format";
import { MECHANISMS } from "./safeguards-panel";

/** The register of transfers abroad, kept in its own table: it outlives the call log's retention. */
export function TransferRegister({ range }: { range: { from: Date; to: Date } }) {
  const trpc = useTRPC();
  const transfers = useQuery(trpc.kvkk.transfers.queryOptions(range));
  return (
    <>
      <h3>Transfer register (KVKK Art. 9)</h3>
      <p className="muted">Calls served outside Turkey per tenant, hour and region, with the safeguard that covered them. Copied from the call log before its retention removes it; complete up to the sealing grace period.</p>
      {!transfers.data?.length ? (
        <p className="muted">No tenant&apos;s calls were served outside Turkey in this period.</p>
      ) : (
        <table aria-label="Transfer register">
          <thead>
            <tr>
              <th>Tenant</th>
              <th>Region</th>
              <th>Hour</th>
              <th>Calls</th>
              <th>Safeguard</th>
            </tr>
          </thead>
          <tbody>
            {transfers.data.map((t) => (
              <tr key={t.id}>
                <td>{t.tenantSlug}</td>
                <td>{t.region}</td>
                <td>{formatDateTime(t.hour)}</td>
                <td>{t.calls.toLocaleString("en")}</td>
                <td>{t.safeguard ? `${MECHANISMS[t.safeguard.mechanism]} · ${t.safeguard.importer} · ${t.safeguard.reference}` : <span className="badge badge-danger">none: incident</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
