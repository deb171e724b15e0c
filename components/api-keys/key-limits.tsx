"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf, formErrorOf } from "@/components/trpc/errors";
import { Field } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";

/** A limit field's text as the API takes it: empty = none (the tenant's limits alone apply). */
export const limitOf = (v: string) => (v.trim() === "" ? null : Number(v));

/** A key's own limits in a table cell: "60 req · 100,000 tok", or "tenant's" when it has none. */
export function KeyLimits({ k }: { k: { rpmLimit: number | null; tpmLimit: number | null } }) {
  if (k.rpmLimit === null && k.tpmLimit === null) return <span className="muted">tenant&apos;s</span>;
  return (
    <span>
      {k.rpmLimit?.toLocaleString("en") ?? "–"} req · {k.tpmLimit?.toLocaleString("en") ?? "–"} tok
    </span>
  );
}

/** Sets one key's limits, within its tenant's (the server refuses more, naming the ceiling). */
export function KeyLimitsForm({ k, onDone }: { k: { id: string; name: string; rpmLimit: number | null; tpmLimit: number | null }; onDone: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [f, setF] = useState({ rpm: k.rpmLimit?.toString() ?? "", tpm: k.tpmLimit?.toString() ?? "" });
  const set = useMutation(
    trpc.apiKey.setLimits.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: async () => {
        await qc.invalidateQueries({ queryKey: trpc.apiKey.list.pathKey() });
        toast.success(`Limits of ${k.name} saved`);
        onDone();
      },
    }),
  );
  const errors = fieldErrorsOf(set.error);
  return (
    <form
      className="form-row"
      aria-label={`Limits of ${k.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        set.mutate({ id: k.id, rpmLimit: limitOf(f.rpm), tpmLimit: limitOf(f.tpm) });
      }}
    >
      {set.error && !Object.keys(errors).length && <div className="form-error">{formErrorOf(set.error)}</div>}
      <Field id={`kl-rpm-${k.id}`} label="Requests per minute" hint="Empty: the tenant's" errors={errors.rpmLimit}>
        <input id={`kl-rpm-${k.id}`} inputMode="numeric" value={f.rpm} onChange={(e) => setF({ ...f, rpm: e.target.value })} aria-invalid={!!errors.rpmLimit} />
      </Field>
      <Field id={`kl-tpm-${k.id}`} label="Tokens per minute" hint="Empty: the tenant's" errors={errors.tpmLimit}>
        <input id={`kl-tpm-${k.id}`} inputMode="numeric" value={f.tpm} onChange={(e) => setF({ ...f, tpm: e.target.value })} aria-invalid={!!errors.tpmLimit} />
      </Field>
      <div className="actions">
        <button className="primary" type="submit" disabled={set.isPending}>
          Save limits
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
