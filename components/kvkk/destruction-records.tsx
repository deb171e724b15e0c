"use client";

import { METHOD_LABEL } from "./methods";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { formatDateTime } from "@/components/ui/format";

export function DestructionRecords() {
  const trpc = useTRPC();
  const recs = useQuery(trpc.kvkk.destructions.queryOptions({ limit: 50 }));
  return (
    <section className="panel" aria-label="Destruction records">
      <h2>Destruction records</h2>
      {!recs.data?.length ? (
        <Empty title="No destruction yet">Each run past retention, and each data subject&apos;s erasure, leaves a record here, sealed and kept at least 3 years (Regulation on Erasure, Destruction or Anonymisation, Art. 7(3)).</Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th>When</th>
              <th>Why</th>
              <th>Tenant</th>
              <th>Period</th>
              <th>Rows</th>
              <th>Method</th>
              <th>By</th>
              <th>Kept until</th>
            </tr>
          </thead>
          <tbody>
            {recs.data.map((r) => (
              <tr key={r.id}>
                <td>{formatDateTime(r.runAt)}</td>
                <td>{r.reason === "subject_request" ? "data subject's request" : "retention"}</td>
                <td className="mono">{r.tenantId ?? (r.partitionsDropped.length ? r.partitionsDropped.join(", ") : "all")}</td>
                <td>
                  {formatDateTime(r.periodFrom)} → {formatDateTime(r.periodTo)}
                </td>
                <td>{r.rowCount.toLocaleString("en")}</td>
                <td>{r.partitionsDropped.length ? "erasure: month's partition dropped" : METHOD_LABEL[r.method]}</td>
                <td>{r.runByEmail ?? "scheduled"}</td>
                <td>{formatDateTime(r.keepUntil)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
