const COLORS = ["#1f5fbf", "#e08a00", "#2e9d5b", "#a23fbf", "#c0392b"];

/** The traffic split as one bar: a glance tells which version takes what. */
export function WeightsBar({ versions }: { versions: { id: string; label: string; weight: number }[] }) {
  return (
    <div className="weights" role="img" aria-label={versions.map((v) => `${v.label} ${v.weight}%`).join(", ")}>
      {versions
        .filter((v) => v.weight > 0)
        .map((v, i) => (
          <span key={v.id} style={{ width: `${v.weight}%`, background: COLORS[i % COLORS.length] }} title={`${v.label}: ${v.weight}%`} />
        ))}
    </div>
  );
}
