import { TIME_ZONE, type Locale } from "./locales.ts";

/**
 * Numbers, money and dates the way each language writes them: `1.234,56 ₺` and `3 Ara 2026` in
 * Turkish, `TRY 1,234.56` and `3 Dec 2026` in English. Pure (no React), so chart adapters, CSV
 * exports and components format alike.
 */
const TAGS: Record<Locale, string> = { en: "en-GB", tr: "tr-TR" };

export function formatNumber(locale: Locale, v: number, maximumFractionDigits = 2): string {
  return new Intl.NumberFormat(TAGS[locale], { maximumFractionDigits }).format(v);
}

/**
 * Turkish writes the lira sign after the amount (`1.234,56 ₺`, as the Turkish Language
 * Association and Turkish invoices do; ICU's `₺1.234,56` is not how a Turkish reader writes it).
 * English uses the ISO code, so a reader abroad never mistakes the currency.
 */
export function formatMoney(locale: Locale, amount: number, currency = "TRY"): string {
  if (locale === "tr" && currency === "TRY") {
    const n = new Intl.NumberFormat("tr-TR", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
    return `${n} ₺`;
  }
  return new Intl.NumberFormat(TAGS[locale], { style: "currency", currency, currencyDisplay: "code" }).format(amount).replace(/\u00a0/g, " ");
}

export function formatDate(locale: Locale, d: Date | string | number): string {
  return new Intl.DateTimeFormat(TAGS[locale], { day: "numeric", month: "short", year: "numeric", timeZone: TIME_ZONE }).format(new Date(d));
}

/** Date and minute in UTC, labelled so; "—" for a missing time. */
export function formatDateTime(locale: Locale, d: Date | string | number | null | undefined): string {
  if (d === null || d === undefined) return "—";
  return new Intl.DateTimeFormat(TAGS[locale], { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hour12: false, timeZone: TIME_ZONE }).format(new Date(d)) + " UTC";
}

export function formatPercent(locale: Locale, fraction: number, maximumFractionDigits = 1): string {
  return new Intl.NumberFormat(TAGS[locale], { style: "percent", maximumFractionDigits }).format(fraction);
}

/** A month as a reader names it: `Ara 2026`, `Dec 2026` (a month's buckets, invoices, registers). */
export function formatMonth(locale: Locale, d: Date | string | number): string {
  return new Intl.DateTimeFormat(TAGS[locale], { month: "short", year: "numeric", timeZone: TIME_ZONE }).format(new Date(d));
}

/** The time of day in UTC, labelled so (`23:30 UTC`, with `seconds` `23:30:05 UTC`); "—" for a missing time. */
export function formatTime(locale: Locale, d: Date | string | number | null | undefined, { seconds = false } = {}): string {
  if (d === null || d === undefined) return "—";
  return new Intl.DateTimeFormat(TAGS[locale], { hour: "2-digit", minute: "2-digit", ...(seconds ? { second: "2-digit" } : {}), hour12: false, timeZone: TIME_ZONE }).format(new Date(d)) + " UTC";
}
