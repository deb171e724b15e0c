"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useTranslations } from "use-intl";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { useErrorText } from "@/components/trpc/use-error-text";
import { useFormat } from "@/components/i18n/use-format";
import { Field } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";

/** A limit field's text as the API takes it: empty = none (the tenant's limits alone apply). */
export const limitOf = (v: string) => (v.trim() === "" ? null : Number(v));

/** A key's own limits in a table cell: "60 req · 100,000 tok", or "tenant's" when it has none. */
export function KeyLimits({ k }: { k: { rpmLimit: number | null; tpmLimit: number | null } }) {
  const t = useTranslations("apiKeys.limits");
  const fmt = useFormat();
  if (k.rpmLimit === null && k.tpmLimit === null) return <span className="muted">{t("tenants")}</span>;
  const n = (v: number | null) => (v === null ? "–" : fmt.number(v));
  return <span>{t("cell", { rpm: n(k.rpmLimit), tpm: n(k.tpmLimit) })}</span>;
}

type Priority = "interactive" | "standard" | "batch";

/** Sets one key's limits within its tenant's, and its class under overload within its plan's (the server refuses more, naming the ceiling). */
export function KeyLimitsForm({ k, onDone }: { k: { id: string; name: string; rpmLimit: number | null; tpmLimit: number | null; priority: Priority | null; mayRaisePriority: boolean }; onDone: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("apiKeys.limits");
  const { formErrorOf } = useErrorText();
  const classes = useTranslations("usage.planLimits.classes");
  const [f, setF] = useState({ rpm: k.rpmLimit?.toString() ?? "", tpm: k.tpmLimit?.toString() ?? "", priority: (k.priority ?? "") as Priority | "", mayRaise: k.mayRaisePriority });
  const set = useMutation(
    trpc.apiKey.setLimits.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: async () => {
        await qc.invalidateQueries({ queryKey: trpc.apiKey.list.pathKey() });
        toast.success(t("saved", { name: k.name }));
        onDone();
      },
    }),
  );
  const errors = fieldErrorsOf(set.error);
  return (
    <form
      className="form-row"
      aria-label={t("aria", { name: k.name })}
      onSubmit={(e) => {
        e.preventDefault();
        set.mutate({ id: k.id, rpmLimit: limitOf(f.rpm), tpmLimit: limitOf(f.tpm), priority: f.priority === "" ? null : (f.priority as Priority), mayRaisePriority: f.mayRaise });
      }}
    >
      {set.error && !Object.keys(errors).length && <div className="form-error">{formErrorOf(set.error)}</div>}
      <Field id={`kl-rpm-${k.id}`} label={t("rpm")} hint={t("emptyHint")} errors={errors.rpmLimit}>
        <input id={`kl-rpm-${k.id}`} inputMode="numeric" value={f.rpm} onChange={(e) => setF({ ...f, rpm: e.target.value })} aria-invalid={!!errors.rpmLimit} />
      </Field>
      <Field id={`kl-tpm-${k.id}`} label={t("tpm")} hint={t("emptyHint")} errors={errors.tpmLimit}>
        <input id={`kl-tpm-${k.id}`} inputMode="numeric" value={f.tpm} onChange={(e) => setF({ ...f, tpm: e.target.value })} aria-invalid={!!errors.tpmLimit} />
      </Field>
      <Field id={`kl-priority-${k.id}`} label={t("priority")} hint={t("priorityHint")} errors={errors.priority}>
        <select id={`kl-priority-${k.id}`} value={f.priority} onChange={(e) => setF({ ...f, priority: e.target.value as Priority | "" })} aria-invalid={!!errors.priority}>
          <option value="">{t("planClass")}</option>
          {(["interactive", "standard", "batch"] as const).map((p) => (
            <option key={p} value={p}>
              {classes(p)}
            </option>
          ))}
        </select>
      </Field>
      <label>
        <input type="checkbox" checked={f.mayRaise} onChange={(e) => setF({ ...f, mayRaise: e.target.checked })} /> {t("mayRaise")}
      </label>
      <div className="actions">
        <button className="primary" type="submit" disabled={set.isPending}>
          {t("save")}
        </button>
        <button type="button" onClick={onDone}>
          {t("cancel")}
        </button>
      </div>
    </form>
  );
}
