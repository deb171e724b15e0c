"use client";

import type { ReactNode } from "react";
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useErrorText } from "@/components/trpc/use-error-text";
import { useToast } from "./toast";

/** A form in a panel: its title, the message for the form as a whole, and submit without a page load. */
export function FormPanel({ title, error, onSubmit, children }: { title?: string; error: unknown; onSubmit: () => void; children: ReactNode }) {
  const { formErrorOf } = useErrorText();
  return (
    <div className="panel">
      {title && <h2>{title}</h2>}
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {!!error && <div className="form-error">{formErrorOf(error)}</div>}
        {children}
      </form>
    </div>
  );
}

/**
 * Options for a form's mutation: the form shows its own errors (field by field), and on success
 * what it changed is refetched, a toast says what happened, and the form closes.
 */
export function useSaveOptions() {
  const qc = useQueryClient();
  const toast = useToast();
  return <T,>(o: { refresh: QueryKey; toast?: (result: T) => string; then?: (result: T) => void }) => ({
    meta: { handlesErrors: true },
    onSuccess: async (result: T) => {
      await qc.invalidateQueries({ queryKey: o.refresh });
      if (o.toast) toast.success(o.toast(result));
      o.then?.(result);
    },
  });
}
