"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { useErrorText } from "@/components/trpc/use-error-text";
import { Field } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { useFormat } from "@/components/i18n/use-format";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";

type View = inferRouterOutputs<AppRouter>["kvkk"]["controller"];

/** The tenant's registration (VERBIS) and the processing agreement, as the platform recorded them. */
export function ControllerRegistration({ tenant }: { tenant: View["tenant"] }) {
  const t = useTranslations("kvkkController");
  const ts = useTranslations("kvkk.special");
  const fmt = useFormat();
  return (
    <section className="panel" aria-label={t("registrationTitle")}>
      <h2>{t("registrationTitle")}</h2>
      <dl className="facts">
        <dt>{t("verbis")}</dt>
        <dd>{tenant.verbisNumber ?? <span className="muted">{t("notRecorded")}</span>}</dd>
        <dt>{t("agreement")}</dt>
        <dd>
          {tenant.processingAgreementRef ? (
            <>
              {tenant.processingAgreementRef}
              {tenant.processingAgreementSignedAt && <span className="muted"> · {t("signedOn", { date: fmt.date(tenant.processingAgreementSignedAt) })}</span>}
            </>
          ) : (
            <span className="muted">{t("notRecorded")}</span>
          )}
        </dd>
        <dt>{t("special")}</dt>
        <dd>
          {tenant.specialCategory ? (
            <>
              <span className="badge badge-kvkk">{ts("badge", { category: ts(`categories.${tenant.specialCategory}`) })}</span> {t("specialValue", { category: ts(`categories.${tenant.specialCategory}`) })};{" "}
              {tenant.specialAbroadConsentRef ? t("specialConsent", { ref: tenant.specialAbroadConsentRef }) : t("specialTurkeyOnly")}
            </>
          ) : (
            <span className="muted">{t("specialNone")}</span>
          )}
        </dd>
      </dl>
    </section>
  );
}

/** The range the tenant may choose in: the special ceiling for special categories (Art. 6), else the platform's period; Law 5651's minimum below. */
function retentionHint(t: ReturnType<typeof useTranslations<"kvkkController">>, r: View["retention"]) {
  if (r.special) return t("rangeSpecial", { max: r.platformDays });
  return r.legalMinDays ? t("rangeWithMin", { min: r.legalMinDays, max: r.platformDays }) : t("range", { max: r.platformDays });
}

/** How long the tenant's call log is kept: its own choice, within the platform's period and the legal minimum. */
export function OwnRetention({ retention }: { retention: View["retention"] }) {
  const t = useTranslations("kvkkController");
  const tm = useTranslations("kvkk.methods");
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const { formErrorOf } = useErrorText();
  const [days, setDays] = useState(retention.days === null ? "" : String(retention.days));
  const [method, setMethod] = useState<"delete" | "anonymize">(retention.method === "anonymize" ? "anonymize" : "delete");
  const save = useMutation(
    trpc.kvkk.setOwnRetention.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: async () => {
        await qc.invalidateQueries({ queryKey: trpc.kvkk.controller.queryKey() });
        toast.success(t("saved"));
      },
    }),
  );
  const errors = fieldErrorsOf(save.error);
  return (
    <section className="panel" aria-label={t("retentionTitle")}>
      <h2>{t("retentionTitle")}</h2>
      <p>{t("inForce", { days: retention.effectiveDays, method: tm(retention.method) })}</p>
      {retention.specialEndpoints.length > 0 && retention.specialCeilingDays !== null && <p className="muted">{t("specialEndpoints", { endpoints: retention.specialEndpoints.join(", "), days: retention.specialCeilingDays })}</p>}
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ days: days.trim() ? Number(days) : null, method });
        }}
      >
        {save.error && !errors.days ? <div className="form-error">{formErrorOf(save.error)}</div> : null}
        <div className="form-row">
          <Field id="own-days" label={t("days")} hint={retentionHint(t, retention)} errors={errors.days}>
            <input id="own-days" inputMode="numeric" value={days} placeholder={String(retention.platformDays)} onChange={(e) => setDays(e.target.value)} aria-invalid={!!errors.days} />
          </Field>
          <Field id="own-method" label={t("method")} errors={errors.method}>
            <select id="own-method" value={method} onChange={(e) => setMethod(e.target.value as "delete" | "anonymize")}>
              <option value="delete">{tm("delete")}</option>
              <option value="anonymize">{tm("anonymize")}</option>
            </select>
          </Field>
        </div>
        <div className="actions">
          <button className="primary" type="submit" disabled={save.isPending}>
            {t("save")}
          </button>
        </div>
      </form>
    </section>
  );
}
