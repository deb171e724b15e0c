"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { useErrorText } from "@/components/trpc/use-error-text";
import { useToast } from "@/components/ui/toast";
import { useFormat } from "@/components/i18n/use-format";

type Kind = "energy" | "storage" | "software" | "operations";
type Spread = "gpu_hours" | "tokens" | "even";

/** The costs beside GPU time in force now (energy, storage, software, operations); admins set them from this hour. */
export function Overheads({ canEdit }: { canEdit: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("usage.overheads");
  const names = useTranslations("usage.parts");
  const fmt = useFormat();
  const { formErrorOf } = useErrorText();
  const current = useQuery(trpc.usage.overheads.queryOptions());
  const [form, setForm] = useState<{ kind: Kind; amount: string; pue: string; spread: Spread }>({ kind: "energy", amount: "", pue: "1.4", spread: "gpu_hours" });
  const set = useMutation(
    trpc.usage.setOverhead.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: () => {
        toast.success(t("set"));
        void qc.invalidateQueries({ queryKey: trpc.usage.overheads.queryKey() });
        void qc.invalidateQueries({ queryKey: trpc.usage.costBreakdown.queryKey() });
      },
    }),
  );
  if (!current.data) return null;
  const hour = () => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
  const submit = () => {
    const base = { amount: form.amount, effectiveFrom: hour() };
    if (form.kind === "energy") set.mutate({ kind: "energy", ...base, pue: Number(form.pue) });
    else if (form.kind === "storage") set.mutate({ kind: "storage", ...base });
    else set.mutate({ kind: form.kind, ...base, spread: form.spread });
  };
  return (
    <div className="panel" data-testid="overheads">
      <h2>{t("title")}</h2>
      <table>
        <tbody>
          {current.data.map((o) => (
            <tr key={o.kind}>
              <td>{names(`names.${o.kind}`)}</td>
              <td>
                {o.amount === null ? (
                  <span className="muted">{t("notSet")}</span>
                ) : (
                  t(`shown.${o.kind}`, { amount: fmt.number(Number(o.amount), 4), pue: o.pue ?? "1", rule: o.spread ? names(`rules.${o.spread}`) : "" })
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {canEdit && (
        <div className="actions" style={{ marginTop: 8 }}>
          <select aria-label={t("kind")} value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as Kind })}>
            {(["energy", "storage", "software", "operations"] as const).map((k) => (
              <option key={k} value={k}>
                {names(`names.${k}`)}
              </option>
            ))}
          </select>
          <input aria-label={t(`amount.${form.kind}`)} placeholder={t(`amount.${form.kind}`)} value={form.amount} onChange={(e) => setForm({ ...form, amount: e.target.value })} style={{ width: 140 }} />
          {form.kind === "energy" && <input aria-label="PUE" value={form.pue} onChange={(e) => setForm({ ...form, pue: e.target.value })} style={{ width: 60 }} />}
          {(form.kind === "software" || form.kind === "operations") && (
            <select aria-label={t("spread")} value={form.spread} onChange={(e) => setForm({ ...form, spread: e.target.value as Spread })}>
              {(["gpu_hours", "tokens", "even"] as const).map((r) => (
                <option key={r} value={r}>
                  {names(`rules.${r}`)}
                </option>
              ))}
            </select>
          )}
          <button disabled={!form.amount || set.isPending} onClick={submit}>
            {t("submit")}
          </button>
        </div>
      )}
      {set.error && <div className="form-error">{Object.values(fieldErrorsOf(set.error)).flat().join(" ") || formErrorOf(set.error)}</div>}
      <p className="muted">{t("hint")}</p>
    </div>
  );
}
