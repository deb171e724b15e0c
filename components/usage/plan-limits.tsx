"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useTranslations } from "use-intl";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { useErrorText } from "@/components/trpc/use-error-text";
import { useFormat } from "@/components/i18n/use-format";
import { useToast } from "@/components/ui/toast";
import { limitOf } from "@/components/api-keys/key-limits";

type Priority = "interactive" | "standard" | "batch";

/** A plan's default gateway limits (for its tenants without their own), its class and weight under overload, and the admin's form to change them. */
export function PlanLimits({ plan, canEdit }: { plan: { id: string; name: string; rpmLimit: number | null; tpmLimit: number | null; priority: Priority; fairShareWeight: number }; canEdit: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("usage.planLimits");
  const { formErrorOf } = useErrorText();
  const num = useFormat().number;
  const [editing, setEditing] = useState(false);
  const [f, setF] = useState({ rpm: plan.rpmLimit?.toString() ?? "", tpm: plan.tpmLimit?.toString() ?? "", priority: plan.priority, weight: String(plan.fairShareWeight) });
  const save = useMutation(
    trpc.usage.setPlanLimits.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: () => {
        toast.success(t("saved", { plan: plan.name }));
        setEditing(false);
        void qc.invalidateQueries({ queryKey: trpc.usage.pricing.queryKey() });
      },
    }),
  );
  const fmt = (v: number | null) => (v === null ? t("unlimited") : num(v));
  if (!editing)
    return (
      <div className="muted">
        {t("defaults", { rpm: fmt(plan.rpmLimit), tpm: fmt(plan.tpmLimit) })} · {t("terms", { priority: t(`classes.${plan.priority}`), weight: num(plan.fairShareWeight) })}{" "}
        {canEdit && (
          <button type="button" onClick={() => setEditing(true)}>
            {t("change")}
          </button>
        )}
      </div>
    );
  const errors = fieldErrorsOf(save.error);
  return (
    <div className="actions">
      <label htmlFor={`pl-rpm-${plan.id}`}>{t("rpm")}</label>
      <input id={`pl-rpm-${plan.id}`} inputMode="numeric" value={f.rpm} placeholder={t("unlimited")} onChange={(e) => setF({ ...f, rpm: e.target.value })} style={{ width: 100 }} />
      <label htmlFor={`pl-tpm-${plan.id}`}>{t("tpm")}</label>
      <input id={`pl-tpm-${plan.id}`} inputMode="numeric" value={f.tpm} placeholder={t("unlimited")} onChange={(e) => setF({ ...f, tpm: e.target.value })} style={{ width: 120 }} />
      <label htmlFor={`pl-priority-${plan.id}`}>{t("priority")}</label>
      <select id={`pl-priority-${plan.id}`} value={f.priority} onChange={(e) => setF({ ...f, priority: e.target.value as Priority })}>
        {(["interactive", "standard", "batch"] as const).map((p) => (
          <option key={p} value={p}>
            {t(`classes.${p}`)}
          </option>
        ))}
      </select>
      <label htmlFor={`pl-weight-${plan.id}`}>{t("weight")}</label>
      <input id={`pl-weight-${plan.id}`} inputMode="numeric" value={f.weight} onChange={(e) => setF({ ...f, weight: e.target.value })} style={{ width: 70 }} />
      <button className="primary" disabled={save.isPending} onClick={() => save.mutate({ planId: plan.id, rpmLimit: limitOf(f.rpm), tpmLimit: limitOf(f.tpm), priority: f.priority, fairShareWeight: Number(f.weight) })}>
        {t("save")}
      </button>
      <button onClick={() => setEditing(false)}>{t("cancel")}</button>
      {save.error && <span className="error">{[...(errors.rpmLimit ?? []), ...(errors.tpmLimit ?? []), ...(errors.fairShareWeight ?? [])].join(" ") || formErrorOf(save.error)}</span>}
    </div>
  );
}
