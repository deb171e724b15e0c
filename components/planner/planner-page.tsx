"use client";

import Link from "next/link";
import { useState } from "react";
import { skipToken, useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useErrorText } from "@/components/trpc/use-error-text";
import { PageHead } from "@/components/ui/page-head";
import { Empty, Field } from "@/components/ui/field";
import type { PlanInput } from "@/server/planner/schemas";
import { PlanResult } from "./plan-result";

const DEFAULTS = { peakRps: 2, promptTokens: 1000, answerTokens: 250, prefixPct: 0, ttftP99Ms: 2000, tpotP99Ms: 30 };
type Form = typeof DEFAULTS & { modelVersionId: string };

/**
 * The capacity planner: a model version, a traffic forecast and SLOs in; every GPU kind × split of
 * the fleet out, ranked by cost per 1M tokens, each with its breakdown (server/planner).
 */
export function PlannerPage() {
  const trpc = useTRPC();
  const t = useTranslations("planner");
  const { errorText } = useErrorText();
  const models = useQuery(trpc.model.list.queryOptions());
  const [form, setForm] = useState<Form>({ ...DEFAULTS, modelVersionId: "" });
  const [asked, setAsked] = useState<PlanInput | null>(null);
  const plan = useQuery(trpc.planner.plan.queryOptions(asked ?? skipToken, { meta: { handlesErrors: true } }));
  const versions = (models.data ?? []).filter((m) => m.task === "llm").flatMap((m) => m.versions.filter((v) => !v.retiredAt).map((v) => ({ id: v.id, label: `${m.name} ${v.version} (${v.precision})` })));
  const num = (key: keyof typeof DEFAULTS) => ({
    type: "number",
    value: form[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: Number(e.target.value) }),
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setAsked({
      modelVersionId: form.modelVersionId,
      forecast: { peakRps: form.peakRps, promptTokens: form.promptTokens, answerTokens: form.answerTokens, prefixShare: form.prefixPct / 100 },
      slo: { ttftP99Ms: form.ttftP99Ms, tpotP99Ms: form.tpotP99Ms, availabilityPct: 99.9 },
      energy: { pricePerKwh: 3.5, pue: 1.3 },
    });
  };
  return (
    <>
      <PageHead title={t("title")}>{t("intro")}</PageHead>
      {models.data && versions.length === 0 ? (
        <Empty title={t("noModels")}>
          <Link href="/models">/models</Link>
        </Empty>
      ) : (
        <form className="panel" onSubmit={submit} aria-label={t("title")}>
          <div className="form-row">
            <Field id="plan-model" label={t("model")}>
              <select id="plan-model" required value={form.modelVersionId} onChange={(e) => setForm({ ...form, modelVersionId: e.target.value })}>
                <option value="">{t("chooseModel")}</option>
                {versions.map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.label}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="plan-rps" label={t("peakRps")}>
              <input id="plan-rps" min={0.01} step="any" {...num("peakRps")} />
            </Field>
            <Field id="plan-prompt" label={t("promptTokens")}>
              <input id="plan-prompt" min={1} {...num("promptTokens")} />
            </Field>
            <Field id="plan-answer" label={t("answerTokens")}>
              <input id="plan-answer" min={1} {...num("answerTokens")} />
            </Field>
            <Field id="plan-prefix" label={t("prefixShare")}>
              <input id="plan-prefix" min={0} max={95} {...num("prefixPct")} />
            </Field>
            <Field id="plan-ttft" label={t("ttft")}>
              <input id="plan-ttft" min={10} {...num("ttftP99Ms")} />
            </Field>
            <Field id="plan-tpot" label={t("tpot")}>
              <input id="plan-tpot" min={1} step="any" {...num("tpotP99Ms")} />
            </Field>
          </div>
          <div className="actions" style={{ marginTop: 12 }}>
            <button className="primary" type="submit" disabled={!form.modelVersionId || plan.isFetching}>
              {plan.isFetching ? t("planning") : t("submit")}
            </button>
          </div>
          {plan.error && (
            <div className="form-error" role="alert" style={{ marginTop: 8 }}>
              {errorText(plan.error)}
            </div>
          )}
        </form>
      )}
      {plan.data && asked && <PlanResult plan={plan.data} />}
    </>
  );
}
