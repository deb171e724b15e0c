/** Axis ticks: short, about three figures. */
export function tickValue(v: number): string {
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
}

/**
 * A value as the hover shows it: exact to six significant figures (no rounding a 0.4 ms TPOT to
 * "0.40"), thousands grouped, with its unit; a gap says "no data", never 0.
 */
export function exactValue(v: number | null | undefined, unit: string): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "no data";
  const n = Number(v.toPrecision(6));
  const text = Math.abs(n) >= 1000 ? n.toLocaleString("en-US", { maximumFractionDigits: 2 }) : String(n);
  return unit ? `${text} ${unit}` : text;
}
