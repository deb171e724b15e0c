"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { Field, Loading } from "@/components/ui/field";
import { formatDateTime } from "@/components/ui/format";
import { METHOD_LABEL } from "./methods";

/** The admin's defaults and each tenant's own retention; an auditor sees the same, read-only. */
export function RetentionPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const s = useQuery(trpc.kvkk.settings.queryOptions());
  const [draft, setDraft] = useState<{ defaultRetentionDays: string; destructionIntervalDays: string; sealGraceMinutes: string } | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.kvkk.settings.queryKey() });
  const save = useMutation(trpc.kvkk.updateSettings.mutationOptions({ onSuccess: () => (toast.success("KVKK settings saved"), setDraft(null), refresh()) }));
  const setTenant = useMutation(trpc.kvkk.setTenantRetention.mutationOptions({ onSuccess: () => (toast.success("Retention saved"), refresh()) }));
  const run = useMutation(
    trpc.kvkk.runDestruction.mutationOptions({
      onSuccess: (r) => {
        toast.success(`Destruction done: ${r.rows} rows in ${r.records.length} record(s)`);
        void qc.invalidateQueries({ queryKey: trpc.kvkk.destructions.queryKey() });
        refresh();
      },
    }),
  );
  if (s.isPending) return <Loading what="retention" />;
  if (s.isError) return <p className="error">{s.error.message}</p>;
  const { settings, tenants, nextDestructionAt } = s.data;
  const d = draft ?? { defaultRetentionDays: String(settings.defaultRetentionDays), destructionIntervalDays: String(settings.destructionIntervalDays), sealGraceMinutes: String(settings.sealGraceMinutes) };
  const errs = (save.error?.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors;
  return (
    <section className="panel" aria-label="Retention">
      <h2>Retention and destruction</h2>
      <p className="muted">
        Destruction runs every {settings.destructionIntervalDays} days (at most every 6 months: Regulation on Erasure, Destruction or Anonymisation, 2017, Art. 11); last {formatDateTime(settings.lastDestructionAt)}, next {formatDateTime(nextDestructionAt) === "—" ? "at the next check" : formatDateTime(nextDestructionAt)}. Whole months are dropped where every row is due; destruction records are kept at least 3 years (Regulation Art. 7(3)).
      </p>
      <form
        className="actions"
        style={{ alignItems: "flex-end", flexWrap: "wrap" }}
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ defaultRetentionDays: Number(d.defaultRetentionDays), destructionIntervalDays: Number(d.destructionIntervalDays), sealGraceMinutes: Number(d.sealGraceMinutes) });
        }}
      >
        <Field id="ret-default" label="Default retention (days)" errors={errs?.defaultRetentionDays}>
          <input id="ret-default" disabled={!canWrite} value={d.defaultRetentionDays} onChange={(e) => setDraft({ ...d, defaultRetentionDays: e.target.value })} />
        </Field>
        <Field id="ret-interval" label="Destruction every (days, ≤ 182)" errors={errs?.destructionIntervalDays}>
          <input id="ret-interval" disabled={!canWrite} value={d.destructionIntervalDays} onChange={(e) => setDraft({ ...d, destructionIntervalDays: e.target.value })} />
        </Field>
        <Field id="ret-grace" label="Seal an hour after (minutes)" errors={errs?.sealGraceMinutes}>
          <input id="ret-grace" disabled={!canWrite} value={d.sealGraceMinutes} onChange={(e) => setDraft({ ...d, sealGraceMinutes: e.target.value })} />
        </Field>
        {canWrite && (
          <>
            <button type="submit" className="primary" disabled={save.isPending}>
              Save
            </button>
            <button type="button" onClick={() => run.mutate()} disabled={run.isPending}>
              Run destruction now
            </button>
          </>
        )}
      </form>
      <table aria-label="Tenant retention">
        <thead>
          <tr>
            <th>Tenant</th>
            <th>Retention</th>
            <th>Method</th>
            {canWrite && <th />}
          </tr>
        </thead>
        <tbody>
          {tenants.map((t) => (
            <tr key={t.id}>
              <td>
                {t.name} {t.kvkk && <span className="badge badge-kvkk">KVKK</span>}
              </td>
              <td>{t.retentionDays === null ? `${t.effectiveDays} days (default)` : `${t.retentionDays} days`}</td>
              <td>{METHOD_LABEL[t.method]}</td>
              {canWrite && (
                <td>
                  <button
                    onClick={() => {
                      const v = prompt(`Retention for ${t.name} in days (empty = default)`, String(t.retentionDays ?? ""));
                      if (v === null) return;
                      const method = confirm("Anonymise instead of erasing? Irreversible: the request ids the tenant holds will match nothing, times are coarsened to the hour, IP, key and subject hash are removed; token counts stay for the cost pages. (Regulation Art. 10)") ? "anonymize" : "delete";
                      setTenant.mutate({ tenantId: t.id, days: v.trim() ? Number(v) : null, method });
                    }}
                  >
                    Change
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
