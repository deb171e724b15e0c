"use client";

import { useTranslations } from "use-intl";
import type { MetricsOffWhy } from "@/server/metrics/chart-keys";
import { useMetricsOffWhy } from "./chart-text";

/** Says why charts are missing and how to turn metrics on, instead of drawing empty charts. */
export function MetricsOff({ reason, what }: { reason?: MetricsOffWhy | string; what?: string }) {
  const t = useTranslations("metrics.off");
  const why = useMetricsOffWhy();
  return (
    <div className="form-error" role="note" data-testid="metrics-off">
      <b>{t("title", { what: what ?? t("metrics") })}</b> {typeof reason === "string" ? reason : why(reason)} {t.rich("install", { code: (c) => <code>{c}</code> })}
    </div>
  );
}
