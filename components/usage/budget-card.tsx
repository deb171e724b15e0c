"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf, formErrorOf } from "@/components/trpc/errors";
import { useToast } from "@/components/ui/toast";
import { formatMoney } from "./adapters";

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
}

/** This month against the budget: a bar, the 80% / 100% alerts, and the form to change it. */
export function BudgetCard({ tenantId, budget, canSet }: { tenantId?: string; budget: Budget; canSet: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [amount, setAmount] = useState(budget.budget ?? "");
  const [hardCap, setHardCap] = useState(budget.hardCap);
  const save = useMutation(
    trpc.usage.setBudget.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: () => {
        toast.success("Budget saved");
        setEditing(false);
        void qc.invalidateQueries({ queryKey: trpc.usage.tenant.pathKey() });
      },
    }),
  );
  const tone = budget.level === "exceeded" ? "var(--danger)" : budget.level === "warning" ? "var(--warn)" : "var(--ok)";
  return (
    <div className="panel" data-testid="budget">
      <h2>This month&apos;s budget</h2>
      {budget.budget === null ? (
        <p className="muted">No monthly budget is set. {canSet && "Set one to be warned at 80% and 100%, and optionally to stop calls once it is spent."}</p>
      ) : (
        <>
          <div className="weights" style={{ height: 14 }} role="img" aria-label={`${budget.pct?.toFixed(0)}% of the budget spent`}>
            <span style={{ width: `${Math.min(100, budget.pct ?? 0)}%`, background: tone }} />
          </div>
          <p>
            {formatMoney(budget.spent, budget.currency)} of {formatMoney(budget.budget, budget.currency)} ({budget.pct?.toFixed(1)}%){budget.hardCap ? " · hard cap on" : " · alerts only"}
          </p>
          {budget.level === "warning" && <div className="notice" role="alert">80% of this month&apos;s budget is spent.</div>}
          {budget.level === "exceeded" && (
            <div className="form-error" role="alert">
              The monthly budget is spent.{" "}
              {budget.blocked ? "The hard cap is on: the gateway refuses calls (429) until the budget is raised or the month ends." : budget.hardCap ? "Calls are refused within a second." : "Calls still go through (no hard cap)."}
            </div>
          )}
        </>
      )}
      {budget.creditLimit !== null && (
        <p className={budget.creditBlocked ? "form-error" : "muted"} role={budget.creditBlocked ? "alert" : undefined}>
          Credit limit set by the platform: {formatMoney(budget.creditLimit, budget.currency)} a month.{" "}
          {budget.creditBlocked ? "It is reached: every call is refused (429) until the platform raises it or the month ends." : "Your own budget cannot lift it."}
        </p>
      )}
      {canSet &&
        (editing ? (
          <div className="actions" style={{ marginTop: 8 }}>
            <label htmlFor="budget-amount">Monthly budget ({budget.currency})</label>
            <input id="budget-amount" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="e.g. 25000" style={{ width: 140 }} />
            <label>
              <input type="checkbox" checked={hardCap} onChange={(e) => setHardCap(e.target.checked)} /> hard cap (refuse calls once spent)
            </label>
            <button className="primary" disabled={save.isPending} onClick={() => save.mutate({ tenantId, monthlyBudget: amount.trim() === "" ? null : amount.trim(), hardCap })}>
              Save
            </button>
            <button onClick={() => setEditing(false)}>Cancel</button>
            {save.error && <span className="error">{fieldErrorsOf(save.error).monthlyBudget?.join(" ") ?? formErrorOf(save.error)}</span>}
          </div>
        ) : (
          <button style={{ marginTop: 8 }} onClick={() => setEditing(true)}>
            {budget.budget === null ? "Set a budget" : "Change budget"}
          </button>
        ))}
    </div>
  );
}
