"use client";

import { useFormat } from "@/components/i18n/use-format";

/**
 * Sizes the way this field quotes them, in the page's language: GPU memory and weights in GB
 * with one decimal (`8.0 GB`, Turkish `8,0 GB`), parameter counts as `8.03 B` / `8,03 Mr`.
 * The digits are fixed (a column of sizes lines up), which useFormat's `number` does not do.
 */
export function useUnits() {
  const fmt = useFormat();
  const oneDecimal = new Intl.NumberFormat(fmt.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const gb = (bytes: bigint | number) => `${oneDecimal.format(Number(bytes) / 1e9)} GB`;
  const params = (n: bigint | number) => {
    const v = Number(n);
    const billion = fmt.locale === "tr" ? "Mr" : "B";
    const million = fmt.locale === "tr" ? "Mn" : "M";
    if (v >= 1e9) return `${fmt.number(+(v / 1e9).toFixed(2), 2)} ${billion}`;
    if (v >= 1e6) return `${fmt.number(+(v / 1e6).toFixed(1), 1)} ${million}`;
    return fmt.number(v, 0);
  };
  return { ...fmt, gb, params };
}
