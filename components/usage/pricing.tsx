"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { useErrorText } from "@/components/trpc/use-error-text";
import { useToast } from "@/components/ui/toast";
import { useFormat } from "@/components/i18n/use-format";
import { PlanLimits } from "./plan-limits";

const CUR = "TRY";

/** Price plans with their dated prices, and the hardware rates the running costs are computed from; admins change them here. */
export function Pricing({ canEdit }: { canEdit: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("usage.pricing");
  const fmt = useFormat();
  const { formErrorOf } = useErrorText();
  const pricing = useQuery(trpc.usage.pricing.queryOptions());
  // A new price starts in an hour by default: never in the past, where calls were already charged.
  const [price, setPrice] = useState(() => ({ planId: "", effectiveFrom: new Date(Date.now() + 3_600_000).toISOString().slice(0, 16), inputPer1M: "", outputPer1M: "", perRequest: "0" }));
  const [rate, setRate] = useState({ key: "", perHour: "" });
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.usage.pricing.queryKey() });
  const addPrice = useMutation(trpc.usage.addPlanPrice.mutationOptions({ meta: { handlesErrors: true }, onSuccess: () => (toast.success(t("priceAdded")), refresh()) }));
  const setHw = useMutation(trpc.usage.setHardwareRate.mutationOptions({ meta: { handlesErrors: true }, onSuccess: () => (toast.success(t("rateSet")), refresh()) }));
  if (!pricing.data) return null;
  const errors = { ...fieldErrorsOf(addPrice.error), ...fieldErrorsOf(setHw.error) };
  // Prices per token can have more than two decimals: shown in full, not rounded to kuruş.
  const amount = (v: { toString(): string }) => fmt.number(Number(v.toString()), 6);
  return (
    <div className="grid-2">
      <div className="panel">
        <h2>{t("plansTitle")}</h2>
        {pricing.data.plans.map((p) => (
          <div key={p.id} style={{ marginBottom: 12 }}>
            <b>{p.name}</b> <span className="muted">{t("planMeta", { tenants: p._count.tenants, currency: p.currency })}</span>
            <PlanLimits plan={p} canEdit={canEdit} />
            <table>
              <thead>
                <tr>
                  <th>{t("from")}</th>
                  <th>{t("scope")}</th>
                  <th>{t("in")}</th>
                  <th>{t("out")}</th>
                  <th>{t("perRequest")}</th>
                </tr>
              </thead>
              <tbody>
                {p.prices.map((x) => (
                  <tr key={x.id}>
                    <td>{fmt.dateTime(x.effectiveFrom)}</td>
                    <td>{x.endpointId ? t("oneEndpoint") : t("allEndpoints")}</td>
                    <td>{amount(x.inputPer1M)}</td>
                    <td>{amount(x.outputPer1M)}</td>
                    <td>{amount(x.perRequest)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
        {canEdit && (
          <div className="form-row">
            <select aria-label={t("plan")} value={price.planId} onChange={(e) => setPrice({ ...price, planId: e.target.value })}>
              <option value="">{t("choosePlan")}</option>
              {pricing.data.plans.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
            <input aria-label={t("effectiveFrom")} type="datetime-local" value={price.effectiveFrom} onChange={(e) => setPrice({ ...price, effectiveFrom: e.target.value })} />
            <input aria-label={t("inputAria")} placeholder={t("inputPlaceholder")} value={price.inputPer1M} onChange={(e) => setPrice({ ...price, inputPer1M: e.target.value })} />
            <input aria-label={t("outputAria")} placeholder={t("outputPlaceholder")} value={price.outputPer1M} onChange={(e) => setPrice({ ...price, outputPer1M: e.target.value })} />
            <input aria-label={t("perRequest")} placeholder={t("perRequestPlaceholder")} value={price.perRequest} onChange={(e) => setPrice({ ...price, perRequest: e.target.value })} />
            <button className="primary" disabled={!price.planId || addPrice.isPending} onClick={() => addPrice.mutate({ ...price, effectiveFrom: new Date(price.effectiveFrom) })}>
              {t("addPrice")}
            </button>
          </div>
        )}
        {addPrice.error && <div className="form-error">{Object.values(errors).flat().join(" ") || formErrorOf(addPrice.error)}</div>}
      </div>
      <div className="panel">
        <h2>{t("hardwareTitle")}</h2>
        <table>
          <thead>
            <tr>
              <th>{t("hardware")}</th>
              <th>{t("count")}</th>
              <th>{t("rate")}</th>
            </tr>
          </thead>
          <tbody>
            {pricing.data.hardware.map((h) => (
              <tr key={`${h.kind}:${h.key}`}>
                <td>
                  {h.kind === "gpu" ? t("gpu") : t("cpuNode")} {h.key}
                </td>
                <td>{fmt.number(h.count)}</td>
                <td>{h.rate ? fmt.money(Number(h.rate.perHour.toString()), CUR) : <span className="error">{t("noRate")}</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {canEdit && (
          <div className="actions" style={{ marginTop: 8 }}>
            <select aria-label={t("hardware")} value={rate.key} onChange={(e) => setRate({ ...rate, key: e.target.value })}>
              <option value="">{t("chooseHardware")}</option>
              {pricing.data.hardware.map((h) => (
                <option key={`${h.kind}:${h.key}`} value={`${h.kind}:${h.key}`}>
                  {h.key}
                </option>
              ))}
            </select>
            <input aria-label={t("rateAria")} placeholder={t("ratePlaceholder")} value={rate.perHour} onChange={(e) => setRate({ ...rate, perHour: e.target.value })} style={{ width: 100 }} />
            <button
              disabled={!rate.key || setHw.isPending}
              onClick={() => {
                const [kind, ...key] = rate.key.split(":");
                setHw.mutate({ kind: kind as "gpu" | "cpu", key: key.join(":"), perHour: rate.perHour, effectiveFrom: new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000) });
              }}
            >
              {t("setRate")}
            </button>
          </div>
        )}
        {setHw.error && <div className="form-error">{Object.values(fieldErrorsOf(setHw.error)).flat().join(" ") || formErrorOf(setHw.error)}</div>}
      </div>
    </div>
  );
}
