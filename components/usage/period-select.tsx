"use client";

import { useTranslations } from "use-intl";

/** The periods the usage and cost views read (server/usage/schemas.ts USAGE_DAYS). */
export const PERIODS = [1, 7, 30, 90] as const;
export type Period = (typeof PERIODS)[number];

export function PeriodSelect({ value, onChange }: { value: Period; onChange: (p: Period) => void }) {
  const t = useTranslations("usage.period");
  return (
    <select aria-label={t("label")} value={value} onChange={(e) => onChange(Number(e.target.value) as Period)}>
      {PERIODS.map((d) => (
        <option key={d} value={d}>
          {d === 1 ? t("day") : t("days", { days: d })}
        </option>
      ))}
    </select>
  );
}
