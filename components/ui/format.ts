/** Bytes as GB with one decimal (GPU memory and weights are quoted in GB in this field). */
export function formatGB(bytes: bigint | number): string {
  return `${(Number(bytes) / 1e9).toFixed(1)} GB`;
}

/** 8030000000 → "8.03 B"; the way parameter counts are spoken of. */
export function formatParams(n: bigint | number): string {
  const v = Number(n);
  if (v >= 1e9) return `${+(v / 1e9).toFixed(2)} B`;
  if (v >= 1e6) return `${+(v / 1e6).toFixed(1)} M`;
  return v.toLocaleString("en-US");
}

export function formatDateTime(d: Date | string | null | undefined): string {
  if (!d) return "—";
  return new Date(d).toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

/** GB typed by a person → whole bytes, or null when it is not a positive number. */
export function gbToBytes(gb: string): string | null {
  const v = Number(gb);
  if (!gb.trim() || !Number.isFinite(v) || v <= 0) return null;
  return BigInt(Math.round(v * 1e9)).toString();
}
