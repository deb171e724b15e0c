"use client";

import { useState } from "react";
import { useLocale, useTranslations } from "use-intl";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { useErrorText } from "@/components/trpc/use-error-text";
import { Field } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { useMetricsOffWhy } from "./chart-text";
import { alertStateText, budgetText, burnText, COLOUR_CLASS, objectiveText } from "./sla-format";
import { PanelHead } from "@/components/ui/page-head";

interface SloFields {
  id: string;
  revision: number;
  sloAvailabilityPct: { toString(): string } | number;
  sloP99LatencyMs: number;
  sloTtftMs: number | null;
}

/** One endpoint's SLOs with their budget and burn, and (for operators) the form that changes them. */
export function EndpointSla({ endpoint, canWrite }: { endpoint: SloFields; canWrite: boolean }) {
  const trpc = useTRPC();
  const sla = useQuery(trpc.metrics.sla.queryOptions(undefined, { refetchInterval: 5000 }));
  const mine = sla.data?.endpoints.find((e) => e.endpointId === endpoint.id);
  const [editing, setEditing] = useState(false);
  const t = useTranslations("metrics.sla");
  const why = useMetricsOffWhy();
  const locale = useLocale();
  return (
    <div className="panel" role="region" aria-label={t("region")}>
      <PanelHead
        title={
          <>
            {t("region")}{" "}
            {mine && (
              <span className={COLOUR_CLASS[mine.status]} data-colour={mine.status}>
                {t(`colour.${mine.status}`)}
              </span>
            )}
          </>
        }
      >
        {canWrite && !editing && (
          <button type="button" onClick={() => setEditing(true)}>
            {t("editSlos")}
          </button>
        )}
      </PanelHead>
      {sla.data && !sla.data.prometheus.available && <p className="muted">{t("statusUnknown", { reason: why(sla.data.prometheus.reason) })}</p>}
      {mine && (
        <table>
          <thead>
            <tr>
              <th>{t("colSlo")}</th>
              <th>{t("colObjective", { window: sla.data?.budgetWindow ?? "" })}</th>
              <th>{t("colStatus")}</th>
              <th>{t("colBudget")}</th>
              <th>{t("colBurn")}</th>
              <th>{t("colAlerts")}</th>
            </tr>
          </thead>
          <tbody>
            {mine.slis.map((s) => (
              <tr key={s.kind}>
                <td>{t(`sli.${s.kind}`)}</td>
                <td>{objectiveText(s, t, locale)}</td>
                <td>
                  <span className={COLOUR_CLASS[s.status]}>{t(`colour.${s.status}`)}</span>
                </td>
                <td>{budgetText(s.budgetLeft, t)}</td>
                <td>{burnText(s.burnRate, locale)}</td>
                <td>{s.alerts.length ? s.alerts.map((a) => `${a.name} ${alertStateText(a.state, t)}`).join(", ") : <span className="muted">{t("none")}</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && <SloForm endpoint={endpoint} onDone={() => setEditing(false)} />}
    </div>
  );
}

function SloForm({ endpoint, onDone }: { endpoint: SloFields; onDone: () => void }) {
  const { formErrorOf } = useErrorText();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("metrics.sla");
  // Any threshold is measured as written: the gateway judges every request against it, no histogram bucket rounds it.
  const exactHint = t("exactHint");
  const [availability, setAvailability] = useState(String(endpoint.sloAvailabilityPct));
  const [p99, setP99] = useState(String(endpoint.sloP99LatencyMs));
  const [ttft, setTtft] = useState(endpoint.sloTtftMs === null ? "" : String(endpoint.sloTtftMs));
  const save = useMutation(
    trpc.endpoint.updateSlo.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: (r) => {
        void qc.invalidateQueries({ queryKey: trpc.endpoint.get.queryKey({ id: endpoint.id }) });
        void qc.invalidateQueries({ queryKey: trpc.metrics.sla.queryKey() });
        if (r.rules.state === "failed") toast.error(t("savedButRules", { message: r.rules.message }));
        else toast.success(r.rules.state === "applied" ? t("savedApplied") : t("saved"));
        onDone();
      },
    }),
  );
  const errors = fieldErrorsOf(save.error);
  const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));
  return (
    <form
      onSubmit={(ev) => {
        ev.preventDefault();
        save.mutate({
          endpointId: endpoint.id,
          expectedRevision: endpoint.revision,
          sloAvailabilityPct: num(availability),
          sloP99LatencyMs: num(p99),
          sloTtftMs: ttft.trim() === "" ? null : num(ttft),
        });
      }}
      style={{ marginTop: 12 }}
    >
      {save.error && (
        <div className="form-error" role="alert">
          {formErrorOf(save.error)}
        </div>
      )}
      <div className="grid-2">
        <Field id="slo-availability" label={t("availability")} hint={t("availabilityHint")} errors={errors.sloAvailabilityPct}>
          <input id="slo-availability" inputMode="decimal" value={availability} onChange={(e) => setAvailability(e.target.value)} />
        </Field>
        <Field id="slo-p99" label={t("p99")} hint={exactHint} errors={errors.sloP99LatencyMs}>
          <input id="slo-p99" inputMode="numeric" value={p99} onChange={(e) => setP99(e.target.value)} />
        </Field>
        <Field id="slo-ttft" label={t("ttft")} hint={t("ttftHint", { exact: exactHint })} errors={errors.sloTtftMs}>
          <input id="slo-ttft" inputMode="numeric" value={ttft} onChange={(e) => setTtft(e.target.value)} />
        </Field>
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {t("save")}
        </button>
        <button type="button" onClick={onDone}>
          {t("cancel")}
        </button>
      </div>
    </form>
  );
}
