"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { PageHead } from "@/components/ui/page-head";
import { Loading } from "@/components/ui/field";
import { formatDateTime } from "@/components/ui/format";
import { LegalHolds } from "./legal-holds";

const period = (days: number | null, store: string) => (days ? `${days} days` : store === "call_log" ? "per tenant" : "see reason");

/**
 * The storage-and-destruction policy (2017 Regulation on Erasure, Destruction or Anonymisation,
 * Art. 5–6), printable: each store of personal data with its purpose, legal basis, period, the
 * reason for the period and who is responsible.
 */
export function PolicyPage({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const p = useQuery(trpc.kvkk.policy.get.queryOptions());
  const update = useMutation(
    trpc.kvkk.policy.update.mutationOptions({ onSuccess: () => (toast.success("Policy entry saved"), void qc.invalidateQueries({ queryKey: trpc.kvkk.policy.get.queryKey() })), onError: (e) => toast.error(e.message) }),
  );
  if (p.isPending) return <Loading what="the policy" />;
  if (p.isError) return <p className="error">{p.error.message}</p>;
  const d = p.data;
  return (
    <>
      <PageHead title="Storage and destruction policy">
        Kişisel Veri Saklama ve İmha Politikası — Regulation on Erasure, Destruction or Anonymisation of Personal Data (2017), Art. 5–6.{" "}
        <button className="no-print" onClick={() => window.print()}>
          Print
        </button>
      </PageHead>
      <section className="panel" aria-label="Policy">
        <p>
          Periodic destruction every {d.destructionIntervalDays} days (at most 6 months, Regulation Art. 11); last run {formatDateTime(d.lastDestructionAt)}. Call-log default retention {d.defaultRetentionDays} days;{" "}
          {d.trafficLogMinDays ? `never below ${d.trafficLogMinDays} days (Law 5651 traffic logs).` : "no Law 5651 minimum set (the operator is not a hosting provider under Law 5651)."} Destruction records are kept at least 3 years (Art. 7(3)).
        </p>
        <table aria-label="Policy entries">
          <thead>
            <tr>
              <th>Store / data category</th>
              <th>Data subjects</th>
              <th>Purpose</th>
              <th>Legal basis</th>
              <th>Period</th>
              <th>Reason for the period</th>
              <th>Responsible</th>
              {canWrite && <th className="no-print" />}
            </tr>
          </thead>
          <tbody>
            {d.entries.map((e) => (
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
                  {e.updatedByEmail && <div className="muted">changed by {e.updatedByEmail}</div>}
                </td>
                {canWrite && (
                  <td className="no-print">
                    <button
                      onClick={() => {
                        const days = prompt(`Period for ${e.store} in days (empty: ${e.store === "call_log" ? "per tenant" : "not destroyed by the periodic run"})`, e.periodDays ? String(e.periodDays) : "");
                        if (days === null) return;
                        const reason = prompt("The reason for this period", e.periodReason);
                        if (!reason) return;
                        update.mutate({ store: e.store as "exports", category: e.category, dataSubjects: e.dataSubjects, purpose: e.purpose, legalBasis: e.legalBasis, periodDays: days.trim() ? Number(days) : null, periodReason: reason, responsible: e.responsible, expectedUpdatedAt: e.updatedAt });
                      }}
                    >
                      Edit
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <LegalHolds canWrite={canWrite} holds={d.holds} />
      <section className="panel" aria-label="Destruction runs">
        <h2>Destruction runs</h2>
        {!d.runs.length ? (
          <p className="muted">No run yet: the first runs at the next check of the cycle{canWrite ? ", or with Run destruction now on the KVKK page" : ""}.</p>
        ) : (
          <table aria-label="Runs">
            <thead>
              <tr>
                <th>Started</th>
                <th>By</th>
                <th>What it did</th>
              </tr>
            </thead>
            <tbody>
              {d.runs.map((r) => {
                const s = r.summary as { callLog?: { rows: number }; auditIp?: { rowCount: number } | null; exports?: { rowCount: number } | null; subjectRequests?: { rowCount: number } | null; skipped?: string[] };
                return (
                  <tr key={r.id}>
                    <td>{formatDateTime(r.startedAt)}</td>
                    <td>{r.actorEmail ?? "Kule (periodic)"}</td>
                    <td>
                      call log {s.callLog?.rows ?? 0} rows · audit IPs {s.auditIp?.rowCount ?? 0} · exports {s.exports?.rowCount ?? 0} · applications {s.subjectRequests?.rowCount ?? 0}
                      {s.skipped?.length ? ` · kept: ${s.skipped.join("; ")}` : ""}
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
