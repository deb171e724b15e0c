"use client";

import { useTranslations } from "use-intl";

/** Says why charts are missing and how to turn metrics on, instead of drawing empty charts. */
export function MetricsOff({ reason, what }: { reason?: string; what?: string }) {
  const t = useTranslations("metrics.off");
  return (
    <div className="form-error" role="note" data-testid="metrics-off">
      <b>{t("title", { what: what ?? t("metrics") })}</b> {reason} {t.rich("install", { code: (c) => <code>{c}</code> })}
    </div>
  );
}
