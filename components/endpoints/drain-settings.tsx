"use client";

const clamp = (v: string, max: number) => Math.max(0, Math.min(max, Math.round(Number(v) || 0)));

/** How long a replaced version's in-flight requests may take to finish, and how long blue-green keeps it warm. */
export function DrainSettings({ drainSeconds, keepWarmMinutes, onChange }: { drainSeconds: number; keepWarmMinutes: number; onChange: (s: { drainSeconds: number; keepWarmMinutes: number }) => void }) {
  return (
    <div className="actions muted" style={{ marginTop: 8, fontSize: 12 }}>
      <label htmlFor="drain-seconds">On promote, in-flight requests may finish for</label>
      <input id="drain-seconds" type="number" min={0} max={3600} value={drainSeconds} onChange={(e) => onChange({ drainSeconds: clamp(e.target.value, 3600), keepWarmMinutes })} style={{ width: 70 }} />
      <span>s; blue-green keeps the old version warm for</span>
      <input aria-label="Keep warm minutes" type="number" min={0} max={1440} value={keepWarmMinutes} onChange={(e) => onChange({ drainSeconds, keepWarmMinutes: clamp(e.target.value, 1440) })} style={{ width: 70 }} />
      <span>min.</span>
    </div>
  );
}
