/**
 * A chart's numbers as text, for people who can't see the lines (a screen reader, a keyboard
 * user, a printout): per series its latest value and its range over the window. Pure, so the
 * chart cards and their tests read the same figures.
 */
export interface SeriesSummary {
  series: string;
  /** The last sample with a value, and when (ms); null when the series has none. */
  latest: number | null;
  latestAt: number | null;
  min: number | null;
  max: number | null;
  mean: number | null;
  /** Samples with a value (gaps not counted). */
  samples: number;
}

export function summarise(rows: Record<string, number | null>[], series: string[], timeKey = "t"): SeriesSummary[] {
  return series.map((s) => {
    let latest: number | null = null;
    let latestAt: number | null = null;
    let min = Infinity;
    let max = -Infinity;
    let sum = 0;
    let samples = 0;
    for (const row of rows) {
      const v = row[s];
      if (v === null || v === undefined || !Number.isFinite(v)) continue;
      samples++;
      sum += v;
      if (v < min) min = v;
      if (v > max) max = v;
      const at = row[timeKey];
      if (latestAt === null || (at ?? -Infinity) >= latestAt) {
        latest = v;
        latestAt = at ?? null;
      }
    }
    return samples ? { series: s, latest, latestAt, min, max, mean: sum / samples, samples } : { series: s, latest: null, latestAt: null, min: null, max: null, mean: null, samples: 0 };
  });
}
