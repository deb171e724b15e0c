"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { formatDateTime } from "@/components/ui/format";
import type { CallLogFilter } from "@/server/call-log/schemas";

/** Exports of the current filter run as background jobs; their progress polls while any runs. */
export function ExportPanel({ filter }: { filter: CallLogFilter }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const jobs = useQuery({
    ...trpc.callLog.export.list.queryOptions(),
    refetchInterval: (q) => (q.state.data?.some((j) => j.state === "queued" || j.state === "running") ? 1000 : false),
  });
  const start = useMutation(
    trpc.callLog.export.start.mutationOptions({
      onSuccess: (j) => {
        toast.success(`Export ${j.format.toUpperCase()} started`);
        void qc.invalidateQueries({ queryKey: trpc.callLog.export.list.queryKey() });
      },
    }),
  );
  return (
    <section className="panel" aria-label="Exports">
      <div className="actions" style={{ justifyContent: "space-between" }}>
        <b>Exports of this filter</b>
        <div className="actions">
          <button onClick={() => start.mutate({ filter, format: "csv" })} disabled={start.isPending}>
            Export CSV
          </button>
          <button onClick={() => start.mutate({ filter, format: "jsonl" })} disabled={start.isPending}>
            Export JSONL
          </button>
        </div>
      </div>
      {!!jobs.data?.length && (
        <table>
          <thead>
            <tr>
              <th>Asked</th>
              <th>By</th>
              <th>Format</th>
              <th>Progress</th>
              <th>SHA-256</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {jobs.data.map((j) => (
              <tr key={j.id}>
                <td>{formatDateTime(j.createdAt)}</td>
                <td>{j.requestedByEmail}</td>
                <td>{j.format.toUpperCase()}</td>
                <td>
                  {j.state === "done" ? (
                    <span className="badge badge-ok">{j.rowsDone.toLocaleString("en")} rows</span>
                  ) : j.state === "failed" ? (
                    <span className="badge badge-danger" title={j.error ?? ""}>
                      failed
                    </span>
                  ) : (
                    <progress aria-label={`Export ${j.id} progress`} max={j.rowsTotal ?? 1} value={j.rowsDone} />
                  )}
                </td>
                <td className="mono" title={j.sha256 ?? ""}>
                  {j.sha256 ? `${j.sha256.slice(0, 16)}…` : "—"}
                </td>
                <td>
                  {j.state === "done" && (
                    <span className="actions">
                      <a href={`/api/exports/${j.id}`} download>
                        Download {j.format.toUpperCase()}
                      </a>
                      <a href={`/api/exports/${j.id}?part=manifest`} download>
                        Manifest
                      </a>
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
