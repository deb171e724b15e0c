"use client";

import { useLocale } from "use-intl";
import { formatDate, formatDateTime, formatMoney, formatMonth, formatNumber, formatPercent, formatTime } from "@/server/shared/i18n/format";

/** The pure formatters (server/i18n/format.ts) bound to the page's language. */
export function useFormat() {
  const locale = useLocale();
  return {
    locale,
    number: (v: number, digits?: number) => formatNumber(locale, v, digits),
    money: (v: number, currency?: string) => formatMoney(locale, v, currency),
    date: (d: Date | string | number) => formatDate(locale, d),
    dateTime: (d: Date | string | number | null | undefined) => formatDateTime(locale, d),
    /** "Ara 2026" / "Dec 2026". */
    month: (d: Date | string | number) => formatMonth(locale, d),
    /** "23:30 UTC"; `{ seconds: true }` for "23:30:05 UTC". */
    time: (d: Date | string | number | null | undefined, opts?: { seconds?: boolean }) => formatTime(locale, d, opts),
    percent: (f: number, digits?: number) => formatPercent(locale, f, digits),
  };
}
