"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { useLocale, useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
import type { CallLogFilter } from "@/server/call-log/schemas";

/** Exports of the current filter run as background jobs; their progress polls while any runs. */
export function ExportPanel({ filter }: { filter: CallLogFilter }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  // The CSV is headed in the page's language; JSONL field names never change.
  const locale = useLocale();
  const t = useTranslations("callLog.exports");
  const fmt = useFormat();
  const jobs = useQuery({
    ...trpc.callLog.export.list.queryOptions(),
    refetchInterval: (q) => (q.state.data?.some((j) => j.state === "queued" || j.state === "running") ? 1000 : false),
  });
  const start = useMutation(
    trpc.callLog.export.start.mutationOptions({
      onSuccess: (j) => {
        toast.success(t("started", { format: j.format.toUpperCase() }));
        void qc.invalidateQueries({ queryKey: trpc.callLog.export.list.queryKey() });
      },
    }),
  );
  return (
    <section className="panel" aria-label={t("aria")}>
      <div className="actions" style={{ justifyContent: "space-between" }}>
        <b>{t("title")}</b>
        <div className="actions">
          <button onClick={() => start.mutate({ filter, format: "csv", locale })} disabled={start.isPending}>
            {t("csv")}
          </button>
          <button onClick={() => start.mutate({ filter, format: "jsonl", locale })} disabled={start.isPending}>
            {t("jsonl")}
          </button>
        </div>
      </div>
      {!!jobs.data?.length && (
        <table>
          <thead>
            <tr>
              <th>{t("asked")}</th>
              <th>{t("by")}</th>
              <th>{t("format")}</th>
              <th>{t("progress")}</th>
              <th>{t("sha")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {jobs.data.map((j) => (
              <tr key={j.id}>
                <td>{fmt.dateTime(j.createdAt)}</td>
                <td>{j.requestedByEmail}</td>
                <td>{j.format.toUpperCase()}</td>
                <td>
                  {j.state === "done" ? (
                    <span className="badge badge-ok">{t("rows", { count: fmt.number(j.rowsDone) })}</span>
                  ) : j.state === "failed" ? (
                    <span className="badge badge-danger" title={j.error ?? ""}>
                      {t("failed")}
                    </span>
                  ) : (
                    <progress aria-label={t("progressAria", { id: j.id })} max={j.rowsTotal ?? 1} value={j.rowsDone} />
                  )}
                </td>
                <td className="mono" title={j.sha256 ?? ""}>
                  {j.sha256 ? `${j.sha256.slice(0, 16)}…` : "—"}
                </td>
                <td>
                  {j.state === "done" && (
                    <span className="actions">
                      <a href={`/api/exports/${j.id}`} download>
                        {t("download", { format: j.format.toUpperCase() })}
                      </a>
                      <a href={`/api/exports/${j.id}?part=manifest`} download>
                        {t("manifest")}
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
