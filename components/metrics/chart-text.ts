"use client";

import { useTranslations } from "use-intl";
import type { Messages } from "@/server/shared/i18n/messages";

type ChartMessages = Messages["metrics"]["chart"];
export type ChartScope = keyof ChartMessages;

/**
 * The server names its charts, units and series in English; the page shows them in its own
 * language by the chart's id, falling back to the server's words for one the messages do not know.
 */
export function useChartText(scope: ChartScope) {
  const t = useTranslations("metrics");
  // The keys come from the server at run time: looked up with `has`, so the cast only tells the type checker so.
  const pick = (prefix: string, key: string, fallback: string) => {
    const k = `${prefix}.${key}` as "noData";
    return t.has(k) ? t(k) : fallback;
  };
  return {
    title: (id: string, fallback: string) => pick(`chart.${scope}`, id, fallback),
    unit: (unit: string) => pick("unit", unit, unit),
    /** "waiting" → "bekleyen"; "queue v1.0" → "kuyruk v1.0"; versions, P50 and 5xx as they are. */
    series: (name: string) => {
      const [head = "", ...rest] = name.split(" ");
      const whole = pick("series", name, "");
      if (whole) return whole;
      return rest.length ? [pick("series", head, head), ...rest].join(" ") : name;
    },
  };
}
