"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { Field, Loading } from "@/components/ui/field";
import { useFormat } from "@/components/i18n/use-format";
import { Legal } from "@/components/ui/legal";

/** The admin's defaults and each tenant's own retention; an auditor sees the same, read-only. */
export function RetentionPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("kvkk");
  const fmt = useFormat();
  const s = useQuery(trpc.kvkk.settings.queryOptions());
  const [draft, setDraft] = useState<{ defaultRetentionDays: string; destructionIntervalDays: string; sealGraceMinutes: string } | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.kvkk.settings.queryKey() });
  const save = useMutation(trpc.kvkk.updateSettings.mutationOptions({ onSuccess: () => (toast.success(t("retention.saved")), setDraft(null), refresh()) }));
  const setTenant = useMutation(trpc.kvkk.setTenantRetention.mutationOptions({ onSuccess: () => (toast.success(t("retention.tenantSaved")), refresh()) }));
  const run = useMutation(
    trpc.kvkk.runDestruction.mutationOptions({
      onSuccess: (r) => {
        toast.success(t("retention.ran", { rows: fmt.number(r.rows), records: r.records.length }));
        void qc.invalidateQueries({ queryKey: trpc.kvkk.destructions.queryKey() });
        refresh();
      },
    }),
  );
  if (s.isPending) return <Loading what={t("retention.loading")} />;
  if (s.isError) return <p className="error">{s.error.message}</p>;
  const { settings, tenants, nextDestructionAt, specialCeilingDays, specialEndpoints } = s.data;
  const d = draft ?? { defaultRetentionDays: String(settings.defaultRetentionDays), destructionIntervalDays: String(settings.destructionIntervalDays), sealGraceMinutes: String(settings.sealGraceMinutes) };
  const errs = (save.error?.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors;
  return (
    <section className="panel" aria-label={t("retention.aria")}>
      <h2>{t("retention.title")}</h2>
      <p className="muted">
        <Legal id="kvkk.retention.intro" values={{ days: fmt.number(settings.destructionIntervalDays), last: fmt.dateTime(settings.lastDestructionAt), next: nextDestructionAt ? fmt.dateTime(nextDestructionAt) : t("retention.atNextCheck") }} />
      </p>
      <p className="muted">
        {t("retention.specialCeiling", { days: fmt.number(specialCeilingDays) })} {specialEndpoints.length > 0 && t("retention.specialEndpoints", { endpoints: specialEndpoints.join(", ") })}
      </p>
      <form
        className="actions"
        style={{ alignItems: "flex-end", flexWrap: "wrap" }}
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ defaultRetentionDays: Number(d.defaultRetentionDays), destructionIntervalDays: Number(d.destructionIntervalDays), sealGraceMinutes: Number(d.sealGraceMinutes) });
        }}
      >
        <Field id="ret-default" label={t("retention.defaultDays")} errors={errs?.defaultRetentionDays}>
          <input id="ret-default" disabled={!canWrite} value={d.defaultRetentionDays} onChange={(e) => setDraft({ ...d, defaultRetentionDays: e.target.value })} />
        </Field>
        <Field id="ret-interval" label={t("retention.interval")} errors={errs?.destructionIntervalDays}>
          <input id="ret-interval" disabled={!canWrite} value={d.destructionIntervalDays} onChange={(e) => setDraft({ ...d, destructionIntervalDays: e.target.value })} />
        </Field>
        <Field id="ret-grace" label={t("retention.grace")} errors={errs?.sealGraceMinutes}>
          <input id="ret-grace" disabled={!canWrite} value={d.sealGraceMinutes} onChange={(e) => setDraft({ ...d, sealGraceMinutes: e.target.value })} />
        </Field>
        {canWrite && (
          <>
            <button type="submit" className="primary" disabled={save.isPending}>
              {t("retention.save")}
            </button>
            <button type="button" onClick={() => run.mutate()} disabled={run.isPending}>
              {t("retention.runNow")}
            </button>
          </>
        )}
      </form>
      <table aria-label={t("retention.tableAria")}>
        <thead>
          <tr>
            <th>{t("retention.tenant")}</th>
            <th>{t("retention.retention")}</th>
            <th>{t("retention.method")}</th>
            {canWrite && <th />}
          </tr>
        </thead>
        <tbody>
          {tenants.map((x) => (
            <tr key={x.id}>
              <td>
                {x.name} {x.kvkk && <span className="badge badge-kvkk">KVKK</span>}
              </td>
              <td>
                {x.effectiveDays < (x.retentionDays ?? settings.defaultRetentionDays)
                  ? t("retention.capped", { days: fmt.number(x.effectiveDays) })
                  : x.retentionDays === null
                    ? t("retention.daysDefault", { days: fmt.number(x.effectiveDays) })
                    : t("retention.days", { days: fmt.number(x.retentionDays) })}
              </td>
              <td>{t(`methods.${x.method}`)}</td>
              {canWrite && (
                <td>
                  <button
                    onClick={() => {
                      const v = prompt(t("retention.prompt", { tenant: x.name }), String(x.retentionDays ?? ""));
                      if (v === null) return;
                      const method = confirm(t("retention.confirmAnonymise")) ? "anonymize" : "delete";
                      setTenant.mutate({ tenantId: x.id, days: v.trim() ? Number(v) : null, method });
                    }}
                  >
                    {t("retention.change")}
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
