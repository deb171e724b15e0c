"use client";

import { useTranslations } from "use-intl";

export const RANGES = ["15m", "1h", "6h", "24h", "7d"] as const;
export type Range = (typeof RANGES)[number];

export function RangePicker({ value, onChange }: { value: Range; onChange: (r: Range) => void }) {
  const t = useTranslations("metrics");
  return (
    <div className="actions" role="group" aria-label={t("timeRange")}>
      {RANGES.map((r) => (
        <button key={r} type="button" className={r === value ? "primary" : undefined} aria-pressed={r === value} onClick={() => onChange(r)}>
          {r}
        </button>
      ))}
    </div>
  );
}
