"use client";

import { useTranslations } from "use-intl";

const clamp = (v: string, max: number) => Math.max(0, Math.min(max, Math.round(Number(v) || 0)));

/** How long a replaced version's in-flight requests may take to finish, and how long blue-green keeps it warm. */
export function DrainSettings({ drainSeconds, keepWarmMinutes, onChange }: { drainSeconds: number; keepWarmMinutes: number; onChange: (s: { drainSeconds: number; keepWarmMinutes: number }) => void }) {
  const t = useTranslations("endpoints.drain");
  return (
    <div className="actions muted" style={{ marginTop: 8, fontSize: 12 }}>
      <label htmlFor="drain-seconds">{t("onPromote")}</label>
      <input id="drain-seconds" type="number" min={0} max={3600} value={drainSeconds} onChange={(e) => onChange({ drainSeconds: clamp(e.target.value, 3600), keepWarmMinutes })} style={{ width: 70 }} />
      <span>{t("keepWarm")}</span>
      <input aria-label={t("keepWarmAria")} type="number" min={0} max={1440} value={keepWarmMinutes} onChange={(e) => onChange({ drainSeconds, keepWarmMinutes: clamp(e.target.value, 1440) })} style={{ width: 70 }} />
      <span>{t("minutes")}</span>
    </div>
  );
}
