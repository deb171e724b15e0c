"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { Field, Loading } from "@/components/ui/field";
import { Legal } from "@/components/ui/legal";
import { FormRow, TextField } from "@/components/ui/form-row";

const CATEGORIES = ["health", "biometric", "genetic", "other"] as const;
type Category = (typeof CATEGORIES)[number];

/** Tenants and endpoints marked as carrying special categories of personal data (KVKK Art. 6), and the marking form. */
export function SpecialPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("kvkk.special");
  const s = useQuery(trpc.kvkk.special.list.queryOptions());
  const [f, setF] = useState<{ tenantId: string; endpointId: string; category: Category; consent: string }>({ tenantId: "", endpointId: "", category: "health", consent: "" });
  const mark = useMutation(trpc.kvkk.special.mark.mutationOptions({ onSuccess: () => (toast.success(t("marked")), void qc.invalidateQueries({ queryKey: trpc.kvkk.special.list.queryKey() })) }));
  if (s.isPending) return <Loading what={t("title")} />;
  if (s.isError) return <p className="error">{s.error.message}</p>;
  const rows = [...s.data.tenants.map((x) => ({ ...x, kind: "tenant" as const })), ...s.data.endpoints.map((x) => ({ ...x, kind: "endpoint" as const, specialAbroadConsentRef: null }))];
  const errs = (mark.error?.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors;
  return (
    <section className="panel" aria-label={t("aria")}>
      <h2>
        <Legal id="kvkk.special.title" />
      </h2>
      <p className="muted">
        <Legal id="kvkk.special.intro" values={{ days: s.data.retentionMaxDays }} />
      </p>
      {!rows.length ? (
        <p className="muted">{t("none")}</p>
      ) : (
        <table aria-label={t("tableAria")}>
          <thead>
            <tr>
              <th>{t("what")}</th>
              <th>{t("category")}</th>
              <th>{t("consent")}</th>
              {canWrite && <th />}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>
                  {r.name} <code>{r.slug}</code>
                </td>
                <td>
                  <span className="badge badge-kvkk">{t("badge", { category: t(`categories.${r.specialCategory as Category}`) })}</span>
                </td>
                <td>{r.kind === "tenant" ? (r.specialAbroadConsentRef ?? t("noConsent")) : "—"}</td>
                {canWrite && (
                  <td>
                    <button onClick={() => mark.mutate(r.kind === "tenant" ? { tenantId: r.id, category: null } : { endpointId: r.id, category: null })}>{t("unmark")}</button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {s.data.moves.length > 0 && (
        <section aria-label={t("movesAria")}>
          <p className="muted">{t("movesIntro")}</p>
          <ul>
            {s.data.moves.map((m) => (
              <li key={`${m.tenantId}-${m.toRing}`}>{t("moveRow", { tenant: m.slug ?? m.tenantId, ring: t(m.toRing === "special" ? "ringSpecial" : "ringStandard"), ip: m.ipRows, subject: m.subjectRows })}</li>
            ))}
          </ul>
        </section>
      )}
      {canWrite && (
        <FormRow onSubmit={() => mark.mutate({ tenantId: f.tenantId || null, endpointId: f.endpointId || null, category: f.category, abroadConsentRef: f.consent || null })}>
          <TextField id="special-tenant" label={t("tenantLabel")} errors={errs?.tenantId} value={f.tenantId} onChange={(v) => setF({ ...f, tenantId: v })} />
          <TextField id="special-endpoint" label={t("endpointLabel")} errors={errs?.endpointId} value={f.endpointId} onChange={(v) => setF({ ...f, endpointId: v })} />
          <Field id="special-category" label={t("categoryLabel")} errors={errs?.category}>
            <select id="special-category" value={f.category} onChange={(e) => setF({ ...f, category: e.target.value as Category })}>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {t(`categories.${c}`)}
                </option>
              ))}
            </select>
          </Field>
          <TextField id="special-consent" label={t("consentLabel")} errors={errs?.abroadConsentRef} value={f.consent} onChange={(v) => setF({ ...f, consent: v })} />
          <button type="submit" disabled={mark.isPending}>
            {t("mark")}
          </button>
        </FormRow>
      )}
    </section>
  );
}
