"use client";

/** The periods the usage and cost views read (server/usage/schemas.ts USAGE_DAYS). */
export const PERIODS = [1, 7, 30, 90] as const;
export type Period = (typeof PERIODS)[number];

export function PeriodSelect({ value, onChange }: { value: Period; onChange: (p: Period) => void }) {
  return (
    <select aria-label="Period" value={value} onChange={(e) => onChange(Number(e.target.value) as Period)}>
      {PERIODS.map((d) => (
        <option key={d} value={d}>
          last {d === 1 ? "24 hours" : `${d} days`}
        </option>
      ))}
    </select>
  );
}
