"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { useErrorText } from "@/components/trpc/use-error-text";
import { useToast } from "@/components/ui/toast";
import { useFormat } from "@/components/i18n/use-format";

interface Budget {
  currency: string;
  spent: string;
  budget: string | null;
  pct: number | null;
  level: "ok" | "warning" | "exceeded" | null;
  hardCap: boolean;
  blocked: boolean;
  creditLimit: string | null;
  creditBlocked: boolean;
  forecast: string;
  budgetReachedAt: Date | null;
}

/** This month against the budget: a bar, the 80% / 100% alerts, and the form to change it. */
export function BudgetCard({ tenantId, budget, canSet }: { tenantId?: string; budget: Budget; canSet: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("usage.budget");
  const fmt = useFormat();
  const { formErrorOf } = useErrorText();
  const [editing, setEditing] = useState(false);
  const [amount, setAmount] = useState(budget.budget ?? "");
  const [hardCap, setHardCap] = useState(budget.hardCap);
  const save = useMutation(
    trpc.usage.setBudget.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: () => {
        toast.success(t("saved"));
        setEditing(false);
        void qc.invalidateQueries({ queryKey: trpc.usage.tenant.pathKey() });
      },
    }),
  );
  const money = (v: string) => fmt.money(Number(v), budget.currency);
  const tone = budget.level === "exceeded" ? "var(--danger)" : budget.level === "warning" ? "var(--warn)" : "var(--ok)";
  return (
    <div className="panel" data-testid="budget">
      <h2>{t("title")}</h2>
      {budget.budget === null ? (
        <p className="muted">
          {t("none")} {canSet && t("noneHint")}
        </p>
      ) : (
        <>
          <div className="weights" style={{ height: 14 }} role="img" aria-label={t("spentAria", { pct: fmt.percent((budget.pct ?? 0) / 100, 0) })}>
            <span style={{ width: `${Math.min(100, budget.pct ?? 0)}%`, background: tone }} />
          </div>
          <p>
            {t("line", { spent: money(budget.spent), budget: money(budget.budget), pct: fmt.percent((budget.pct ?? 0) / 100, 1) })}
            {budget.hardCap ? t("hardCapOn") : t("alertsOnly")}
          </p>
          {budget.level === "warning" && (
            <div className="notice" role="alert">
              {t("warning")}
            </div>
          )}
          {budget.level === "exceeded" && (
            <div className="form-error" role="alert">
              {t("exceeded")} {budget.blocked ? t("blocked") : budget.hardCap ? t("refusedSoon") : t("stillThrough")}
            </div>
          )}
        </>
      )}
      {budget.budgetReachedAt && budget.level !== "exceeded" ? (
        <p className="notice" data-testid="forecast">
          {t("runsOut", { date: fmt.dateTime(budget.budgetReachedAt), forecast: money(budget.forecast) })}
        </p>
      ) : (
        <p className="muted" data-testid="forecast">
          {t("forecast", { forecast: money(budget.forecast) })}
        </p>
      )}
      {budget.creditLimit !== null && (
        <p className={budget.creditBlocked ? "form-error" : "muted"} role={budget.creditBlocked ? "alert" : undefined}>
          {t("credit", { amount: money(budget.creditLimit) })} {budget.creditBlocked ? t("creditReached") : t("creditCannotLift")}
        </p>
      )}
      {canSet &&
        (editing ? (
          <div className="actions" style={{ marginTop: 8 }}>
            <label htmlFor="budget-amount">{t("amount", { currency: budget.currency })}</label>
            <input id="budget-amount" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder={t("placeholder")} style={{ width: 140 }} />
            <label>
              <input type="checkbox" checked={hardCap} onChange={(e) => setHardCap(e.target.checked)} /> {t("hardCap")}
            </label>
            <button className="primary" disabled={save.isPending} onClick={() => save.mutate({ tenantId, monthlyBudget: amount.trim() === "" ? null : amount.trim(), hardCap })}>
              {t("save")}
            </button>
            <button onClick={() => setEditing(false)}>{t("cancel")}</button>
            {save.error && <span className="error">{fieldErrorsOf(save.error).monthlyBudget?.join(" ") ?? formErrorOf(save.error)}</span>}
          </div>
        ) : (
          <button style={{ marginTop: 8 }} onClick={() => setEditing(true)}>
            {budget.budget === null ? t("set") : t("change")}
          </button>
        ))}
    </div>
  );
}
