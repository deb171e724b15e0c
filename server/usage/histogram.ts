/**
 * Latency histograms kept in the hourly roll-ups: calls per bucket, so percentiles over any
 * period are a sum of arrays. Bucket upper bounds in ms; the last bucket is everything above.
 */
export const LATENCY_BUCKETS_MS = [25, 50, 100, 200, 350, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10_000, 20_000, 30_000, 60_000] as const;

/** SQL that counts `expr` (ms) into the buckets, as an int[] column of an aggregate query. */
export function bucketsSql(expr: string): string {
  const parts: string[] = [];
  let lower: number | null = null;
  for (const b of LATENCY_BUCKETS_MS) {
    parts.push(`count(*) FILTER (WHERE ${expr} ${lower === null ? "IS NOT NULL AND" : `> ${lower} AND`} ${expr} <= ${b})::int`);
    lower = b;
  }
  parts.push(`count(*) FILTER (WHERE ${expr} > ${lower})::int`);
  return `ARRAY[${parts.join(", ")}]`;
}

export function addBuckets(into: number[], more: number[]): number[] {
  const out = into.length ? [...into] : new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0);
  more.forEach((n, i) => (out[i] = (out[i] ?? 0) + n));
  return out;
}

/**
 * The q-quantile (0–1) from bucket counts, interpolating linearly inside the bucket (as
 * Prometheus' histogram_quantile does); null without data. The open last bucket answers its
 * lower bound: "above 60 s".
 */
export function quantileMs(buckets: number[], q: number): number | null {
  const total = buckets.reduce((s, n) => s + n, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    const n = buckets[i]!;
    if (seen + n >= rank && n > 0) {
      const lower = i === 0 ? 0 : LATENCY_BUCKETS_MS[i - 1]!;
      const upper = LATENCY_BUCKETS_MS[i];
      if (upper === undefined) return lower;
      return lower + (upper - lower) * ((rank - seen) / n);
    }
    seen += n;
  }
  return LATENCY_BUCKETS_MS[LATENCY_BUCKETS_MS.length - 1]!;
}
