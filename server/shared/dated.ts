/**
 * The one rule for dated rows (plan prices aside, which a call reads in SQL): the row in force at
 * `at` is the latest whose effectiveFrom is not after it — hardware rates and the costs beside
 * GPU time alike. Null when none has taken effect yet.
 */
export function inForce<T extends { effectiveFrom: Date }>(rows: readonly T[], at: number, match: (row: T) => boolean): T | null {
  let best: T | null = null;
  for (const r of rows) if (match(r) && r.effectiveFrom.getTime() <= at && (!best || r.effectiveFrom > best.effectiveFrom)) best = r;
  return best;
}
