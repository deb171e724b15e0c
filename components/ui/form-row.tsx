"use client";

import type { ReactNode } from "react";
import { Field } from "./field";

/** A form whose labelled fields sit side by side and wrap, the button last: the KVKK panels' small forms. */
export function FormRow({ label, className, onSubmit, children }: { label?: string; className?: string; onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      aria-label={label}
      className={className ? `actions ${className}` : "actions"}
      style={{ alignItems: "flex-end", flexWrap: "wrap" }}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A text (or date) input with its label, hint and the server's errors for that field. */
export function TextField({ id, label, hint, errors, value, onChange, type, size }: { id: string; label: string; hint?: string; errors?: string[]; value: string; onChange: (value: string) => void; type?: "text" | "date"; size?: number }) {
  return (
    <Field id={id} label={label} hint={hint} errors={errors}>
      <input id={id} type={type} size={size} value={value} onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}
