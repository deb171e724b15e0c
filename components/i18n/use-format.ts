"use client";

import { useLocale } from "use-intl";
import { formatDate, formatDateTime, formatMoney, formatNumber, formatPercent } from "@/server/shared/i18n/format";

/** The pure formatters (server/i18n/format.ts) bound to the page's language. */
export function useFormat() {
  const locale = useLocale();
  return {
    locale,
    number: (v: number, digits?: number) => formatNumber(locale, v, digits),
    money: (v: number, currency?: string) => formatMoney(locale, v, currency),
    date: (d: Date | string | number) => formatDate(locale, d),
    dateTime: (d: Date | string | number | null | undefined) => formatDateTime(locale, d),
    percent: (f: number, digits?: number) => formatPercent(locale, f, digits),
  };
}
