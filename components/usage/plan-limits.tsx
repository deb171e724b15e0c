"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf, formErrorOf } from "@/components/trpc/errors";
import { useToast } from "@/components/ui/toast";
import { limitOf } from "@/components/api-keys/key-limits";

/** A plan's default gateway limits (for its tenants without their own), and the admin's form to change them. */
export function PlanLimits({ plan, canEdit }: { plan: { id: string; name: string; rpmLimit: number | null; tpmLimit: number | null }; canEdit: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [f, setF] = useState({ rpm: plan.rpmLimit?.toString() ?? "", tpm: plan.tpmLimit?.toString() ?? "" });
  const save = useMutation(
    trpc.usage.setPlanLimits.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: () => {
        toast.success(`Limits of ${plan.name} saved: the gateways apply them at once`);
        setEditing(false);
        void qc.invalidateQueries({ queryKey: trpc.usage.pricing.queryKey() });
      },
    }),
  );
  const fmt = (v: number | null) => v?.toLocaleString("en") ?? "unlimited";
  if (!editing)
    return (
      <div className="muted">
        Default limits: {fmt(plan.rpmLimit)} requests/min · {fmt(plan.tpmLimit)} tokens/min{" "}
        {canEdit && (
          <button type="button" onClick={() => setEditing(true)}>
            Change
          </button>
        )}
      </div>
    );
  const errors = fieldErrorsOf(save.error);
  return (
    <div className="actions">
      <label htmlFor={`pl-rpm-${plan.id}`}>Requests/min</label>
      <input id={`pl-rpm-${plan.id}`} inputMode="numeric" value={f.rpm} placeholder="unlimited" onChange={(e) => setF({ ...f, rpm: e.target.value })} style={{ width: 100 }} />
      <label htmlFor={`pl-tpm-${plan.id}`}>Tokens/min</label>
      <input id={`pl-tpm-${plan.id}`} inputMode="numeric" value={f.tpm} placeholder="unlimited" onChange={(e) => setF({ ...f, tpm: e.target.value })} style={{ width: 120 }} />
      <button className="primary" disabled={save.isPending} onClick={() => save.mutate({ planId: plan.id, rpmLimit: limitOf(f.rpm), tpmLimit: limitOf(f.tpm) })}>
        Save
      </button>
      <button onClick={() => setEditing(false)}>Cancel</button>
      {save.error && <span className="error">{[...(errors.rpmLimit ?? []), ...(errors.tpmLimit ?? [])].join(" ") || formErrorOf(save.error)}</span>}
    </div>
  );
}
