"use client";

export const RANGES = ["15m", "1h", "6h", "24h", "7d"] as const;
export type Range = (typeof RANGES)[number];

export function RangePicker({ value, onChange }: { value: Range; onChange: (r: Range) => void }) {
  return (
    <div className="actions" role="group" aria-label="Time range">
      {RANGES.map((r) => (
        <button key={r} type="button" className={r === value ? "primary" : undefined} aria-pressed={r === value} onClick={() => onChange(r)}>
          {r}
        </button>
      ))}
    </div>
  );
}
