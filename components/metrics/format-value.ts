import { formatNumber } from "@/server/shared/i18n/format";
import type { Locale } from "@/server/shared/i18n/locales";

/** Axis ticks: short, about three figures, in the page's language (`12.3`, Turkish `12,3`). */
export function tickValue(v: number, locale: Locale = "en"): string {
  const digits = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(v);
}

/**
 * A value as the hover shows it: exact to six significant figures (no rounding a 0.4 ms TPOT to
 * "0.40"), thousands grouped, with its unit; a gap says `noData` ("no data"), never 0.
 */
export function exactValue(v: number | null | undefined, unit: string, locale: Locale = "en", noData = "no data"): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return noData;
  const n = Number(v.toPrecision(6));
  // Six significant figures already: below 1000 show them all, above keep two decimals at most.
  const text = formatNumber(locale, n, Math.abs(n) >= 1000 ? 2 : 20);
  return unit ? `${text} ${unit}` : text;
}
