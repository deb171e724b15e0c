"use client";

import type { ReactNode } from "react";
import { useTranslations } from "use-intl";

/** A labelled form control with its hint and the server's per-field error. */
export function Field({ id, label, hint, errors, children }: { id: string; label: string; hint?: string; errors?: string[]; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && !errors?.length && <span className="hint">{hint}</span>}
      {errors?.map((e) => (
        <span key={e} className="error" id={`${id}-error`}>
          {e}
        </span>
      ))}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <b>{title}</b>
      {children}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  const t = useTranslations("common");
  return (
    <div className="empty" aria-busy="true">
      {t("loading", { what })}
    </div>
  );
}
