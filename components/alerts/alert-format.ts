import type { inferRouterOutputs } from "@trpc/server";
import type { useTranslations } from "use-intl";
import type { AppRouter } from "@/server/routers/root";

export type AlertRow = inferRouterOutputs<AppRouter>["alert"]["list"][number];

/** The words of durations (`alerts.format`), from the caller's translator. */
export type FormatT = ReturnType<typeof useTranslations<"alerts.format">>;

/** "12 min", "3 h 5 min": how long an alert has been firing, or fired. */
export function durationText(from: Date, to: Date, t: FormatT): string {
  const min = Math.max(0, Math.round((to.getTime() - from.getTime()) / 60_000));
  if (min < 1) return t("underMinute");
  if (min < 60) return t("minutes", { min: String(min) });
  const h = String(Math.floor(min / 60));
  return min % 60 ? t("hoursMinutes", { h, min: String(min % 60) }) : t("hours", { h });
}

/** The burn-rate windows an SLO alert compares ("1h & 5m"), else nothing. */
export function windowsText(a: Pick<AlertRow, "longWindow" | "shortWindow">): string | null {
  return a.longWindow && a.shortWindow ? `${a.longWindow} & ${a.shortWindow}` : null;
}

/** The chart range that shows an alert's start: the smallest of the pickers' ranges reaching back to it. */
export function rangeFor(startsAt: Date, now = new Date()): "15m" | "1h" | "6h" | "24h" | "7d" {
  const ago = now.getTime() - startsAt.getTime();
  for (const [r, ms] of [["15m", 15 * 60_000], ["1h", 3_600_000], ["6h", 6 * 3_600_000], ["24h", 86_400_000]] as const) if (ago < ms * 0.9) return r;
  return "7d";
}
