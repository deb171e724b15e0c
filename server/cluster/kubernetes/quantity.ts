/** resource.Quantity's grammar, as the API server's validation message quotes it. */
export const QUANTITY_PATTERN = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;

const SUFFIX: Record<string, number> = {
  "": 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** A quantity in base units ("500m" → 0.5, "16Gi" → 17179869184), or NaN when it does not parse. */
export function parseQuantity(q: string | number | undefined): number {
  if (q === undefined) return 0;
  if (typeof q === "number") return q;
  const m = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?:([eE][+-]?[0-9]+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/.exec(q.trim());
  if (!m) return NaN;
  if (m[2]) return Number(m[1] + m[2]);
  return Number(m[1]) * SUFFIX[m[3] ?? ""]!;
}

export function isValidQuantity(q: unknown): boolean {
  return (typeof q === "number" && Number.isFinite(q)) || (typeof q === "string" && !Number.isNaN(parseQuantity(q)));
}
