"use client";

import { useTranslations } from "use-intl";
import type { Messages } from "@/server/shared/i18n/messages";
import type { ChartNote, MetricsOffWhy } from "@/server/metrics/chart-keys";

type ChartMessages = Messages["metrics"]["chart"];
export type ChartScope = keyof ChartMessages;

/**
 * The server names its charts by id and says why one is empty, or why there are no metrics, by
 * message keys; the page words them in its own language. Units and series come as the server
 * writes them and are translated where the messages know them (versions, P50 and 5xx stay).
 */
export function useChartText(scope: ChartScope) {
  const t = useTranslations("metrics");
  // Units and series come from the server at run time: looked up with `has`, so the cast only tells the type checker so.
  const pick = (prefix: string, key: string, fallback: string) => {
    const k = `${prefix}.${key}` as "noData";
    return t.has(k) ? t(k) : fallback;
  };
  return {
    title: (id: string) => t(`chart.${scope}.${id}` as "noData"),
    note: (n: ChartNote | undefined) => (n ? t(`note.${n.key}`, n.values) : undefined),
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

/** Why there are no metrics (Prometheus off, away or refusing), in the page's language. */
export function useMetricsOffWhy() {
  const t = useTranslations("metrics.why");
  return (why: MetricsOffWhy | undefined) => (why ? t(why.key, why.values) : "");
}
