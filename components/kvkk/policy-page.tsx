"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { PageHead } from "@/components/ui/page-head";
import { Loading } from "@/components/ui/field";
import { useFormat } from "@/components/i18n/use-format";
import { LegalHolds } from "./legal-holds";
import { useSeededPolicy } from "./seeded-policy";

/**
 * The storage-and-destruction policy (2017 Regulation on Erasure, Destruction or Anonymisation,
 * Art. 5–6), printable: each store of personal data with its purpose, legal basis, period, the
 * reason for the period and who is responsible.
 */
export function PolicyPage({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("kvkk.policy");
  const fmt = useFormat();
  const seeded = useSeededPolicy();
  const p = useQuery(trpc.kvkk.policy.get.queryOptions());
  const update = useMutation(
    trpc.kvkk.policy.update.mutationOptions({ onSuccess: () => (toast.success(t("saved")), void qc.invalidateQueries({ queryKey: trpc.kvkk.policy.get.queryKey() })), onError: (e) => toast.error(e.message) }),
  );
  if (p.isPending) return <Loading what={t("loading")} />;
  if (p.isError) return <p className="error">{p.error.message}</p>;
  const d = p.data;
  const period = (days: number | null, store: string) => (days ? t("days", { days: fmt.number(days) }) : store === "call_log" ? t("perTenant") : t("seeReason"));
  return (
    <>
      <PageHead title={t("title")}>
        {t("subtitle")}{" "}
        <button className="no-print" onClick={() => window.print()}>
          {t("print")}
        </button>
      </PageHead>
      <section className="panel" aria-label={t("aria")}>
        <p>
          {t("cycle", { days: fmt.number(d.destructionIntervalDays), last: fmt.dateTime(d.lastDestructionAt), retention: fmt.number(d.defaultRetentionDays) })}{" "}
          {d.trafficLogMinDays ? t("trafficMin", { days: fmt.number(d.trafficLogMinDays) }) : t("noTrafficMin")} {t("recordsKept")}
        </p>
        <table aria-label={t("tableAria")}>
          <thead>
            <tr>
              <th>{t("store")}</th>
              <th>{t("subjects")}</th>
              <th>{t("purpose")}</th>
              <th>{t("legalBasis")}</th>
              <th>{t("period")}</th>
              <th>{t("reason")}</th>
              <th>{t("responsible")}</th>
              {canWrite && <th className="no-print" />}
            </tr>
          </thead>
          <tbody>
            {d.entries.map(seeded).map((e) => (
              <tr key={e.store}>
                <td>
                  <code>{e.store}</code> {e.category}
                </td>
                <td>{e.dataSubjects}</td>
                <td>{e.purpose}</td>
                <td>{e.legalBasis}</td>
                <td>{period(e.periodDays, e.store)}</td>
                <td>{e.periodReason}</td>
                <td>
                  {e.responsible}
                  {e.updatedByEmail && <div className="muted">{t("changedBy", { email: e.updatedByEmail })}</div>}
                </td>
                {canWrite && (
                  <td className="no-print">
                    <button
                      onClick={() => {
                        const days = prompt(t("promptDays", { store: e.store, meaning: e.store === "call_log" ? t("perTenant") : t("notDestroyed") }), e.periodDays ? String(e.periodDays) : "");
                        if (days === null) return;
                        const reason = prompt(t("promptReason"), e.periodReason);
                        if (!reason) return;
                        update.mutate({ store: e.store as "exports", category: e.category, dataSubjects: e.dataSubjects, purpose: e.purpose, legalBasis: e.legalBasis, periodDays: days.trim() ? Number(days) : null, periodReason: reason, responsible: e.responsible, expectedUpdatedAt: e.updatedAt });
                      }}
                    >
                      {t("edit")}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <LegalHolds canWrite={canWrite} holds={d.holds} />
      <section className="panel" aria-label={t("runsAria")}>
        <h2>{t("runsTitle")}</h2>
        {!d.runs.length ? (
          <p className="muted">{canWrite ? t("noRunsWrite") : t("noRuns")}</p>
        ) : (
          <table aria-label={t("runsTable")}>
            <thead>
              <tr>
                <th>{t("started")}</th>
                <th>{t("by")}</th>
                <th>{t("did")}</th>
              </tr>
            </thead>
            <tbody>
              {d.runs.map((r) => {
                const s = r.summary as { callLog?: { rows: number }; auditIp?: { rowCount: number } | null; exports?: { rowCount: number } | null; subjectRequests?: { rowCount: number } | null; skipped?: string[] };
                return (
                  <tr key={r.id}>
                    <td>{fmt.dateTime(r.startedAt)}</td>
                    <td>{r.actorEmail ?? t("periodic")}</td>
                    <td>
                      {t("summary", { calls: fmt.number(s.callLog?.rows ?? 0), ips: fmt.number(s.auditIp?.rowCount ?? 0), exports: fmt.number(s.exports?.rowCount ?? 0), applications: fmt.number(s.subjectRequests?.rowCount ?? 0) })}
                      {s.skipped?.length ? t("kept", { list: s.skipped.join("; ") }) : ""}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
