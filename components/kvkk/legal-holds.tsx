"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { FormRow, TextField } from "@/components/ui/form-row";
import { useFormat } from "@/components/i18n/use-format";

interface Hold {
  id: string;
  tenantId: string | null;
  subject: string | null;
  reason: string;
  createdByEmail: string;
  createdAt: Date | string;
}

/** Legal holds: data the periodic destruction must keep while a case or an authority needs it. */
export function LegalHolds({ canWrite, holds }: { canWrite: boolean; holds: Hold[] }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("kvkk.holds");
  const fmt = useFormat();
  const [f, setF] = useState({ tenantId: "", user: "", reason: "" });
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.kvkk.policy.get.queryKey() });
  const place = useMutation(trpc.kvkk.holds.place.mutationOptions({ onSuccess: () => (toast.success(t("placedToast")), setF({ tenantId: "", user: "", reason: "" }), refresh()) }));
  const release = useMutation(trpc.kvkk.holds.release.mutationOptions({ onSuccess: () => (toast.success(t("released")), refresh()), onError: (e) => toast.error(e.message) }));
  const errs = (place.error?.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors;
  return (
    <section className="panel" aria-label={t("aria")}>
      <h2>{t("title")}</h2>
      {!holds.length ? (
        <p className="muted">{t("none")}</p>
      ) : (
        <table aria-label={t("tableAria")}>
          <thead>
            <tr>
              <th>{t("keeps")}</th>
              <th>{t("reason")}</th>
              <th>{t("placed")}</th>
              {canWrite && <th className="no-print" />}
            </tr>
          </thead>
          <tbody>
            {holds.map((h) => (
              <tr key={h.id}>
                <td>{h.subject ? t("subject", { subject: h.subject }) : h.tenantId ? t("tenant", { tenant: h.tenantId }) : t("all")}</td>
                <td>{h.reason}</td>
                <td>{t("placedBy", { date: fmt.dateTime(h.createdAt), email: h.createdByEmail })}</td>
                {canWrite && (
                  <td className="no-print">
                    <button onClick={() => release.mutate({ id: h.id })}>{t("release")}</button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canWrite && (
        <FormRow className="no-print" onSubmit={() => place.mutate({ tenantId: f.tenantId || null, user: f.user || null, reason: f.reason })}>
          <TextField id="hold-tenant" label={t("tenantLabel")} errors={errs?.tenantId} value={f.tenantId} onChange={(v) => setF({ ...f, tenantId: v })} />
          <TextField id="hold-user" label={t("userLabel")} errors={errs?.user} value={f.user} onChange={(v) => setF({ ...f, user: v })} />
          <TextField id="hold-reason" label={t("reasonLabel")} errors={errs?.reason} value={f.reason} onChange={(v) => setF({ ...f, reason: v })} />
          <button type="submit" className="primary" disabled={place.isPending}>
            {t("place")}
          </button>
        </FormRow>
      )}
    </section>
  );
}
