/**
 * Roll-up answers → recharts rows. Usage counts are exact: a bucket with no calls is a real 0
 * (unlike a missing Prometheus sample), so every series gets a value in every bucket.
 */
export interface UsagePoint {
  t: number;
  values: Record<string, { requests: number; input: number; output: number }>;
}

export function usageRows(series: UsagePoint[], keys: string[], metric: "requests" | "tokens"): Record<string, number>[] {
  return series.map((p) => {
    const row: Record<string, number> = { t: p.t };
    for (const k of keys) {
      const v = p.values[k];
      row[k] = v ? (metric === "requests" ? v.requests : v.input + v.output) : 0;
    }
    return row;
  });
}

/** Input and output tokens per bucket, over every series. */
export function tokenRows(series: UsagePoint[]): { t: number; input: number; output: number }[] {
  return series.map((p) => {
    let input = 0;
    let output = 0;
    for (const v of Object.values(p.values)) {
      input += v.input;
      output += v.output;
    }
    return { t: p.t, input, output };
  });
}

export function costRows(days: { day: string; amount: string }[]): { day: string; amount: number }[] {
  return days.map((d) => ({ day: d.day.slice(5), amount: Number(d.amount) }));
}

/** The months an invoice can be asked for: this one and the eleven before, newest first. */
export function recentMonths(now = new Date(), n = 12): string[] {
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    return d.toISOString().slice(0, 7);
  });
}

export function formatMoney(amount: string | null, currency: string): string {
  if (amount === null) return "—";
  return `${Number(amount).toLocaleString("tr-TR", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
}
