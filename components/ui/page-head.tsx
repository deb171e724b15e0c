"use client";

import type { ReactNode } from "react";
import { useTranslations } from "use-intl";

/** A page's title, what it is for, and its main action on the right. */
export function PageHead({ title, children, action }: { title: ReactNode; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="page-head">
      <div>
        <h1>{title}</h1>
        {children && <p>{children}</p>}
      </div>
      {action}
    </div>
  );
}

/** A panel's title with its actions on the right (a range picker, a "New …" button). */
export function PanelHead({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="page-head panel-head">
      <h2>{title}</h2>
      {children && <div className="actions">{children}</div>}
    </div>
  );
}

/** A form's submit and cancel buttons; submit is disabled while the mutation runs. */
export function FormActions({ submit, pending, onCancel }: { submit: string; pending: boolean; onCancel: () => void }) {
  const t = useTranslations("common");
  return (
    <div className="actions">
      <button className="primary" type="submit" disabled={pending}>
        {submit}
      </button>
      <button type="button" onClick={onCancel}>
        {t("cancel")}
      </button>
    </div>
  );
}
