import type { inferRouterOutputs } from "@trpc/server";
import type { useTranslations } from "use-intl";
import type { AppRouter } from "@/server/routers/root";
import { formatNumber } from "@/server/shared/i18n/format";
import type { Locale } from "@/server/shared/i18n/locales";

export type SlaData = inferRouterOutputs<AppRouter>["metrics"]["sla"];
export type EndpointSla = SlaData["endpoints"][number];
export type SliSla = EndpointSla["slis"][number];

/** The SLA words (`metrics.sla`), from the caller's translator: a component's or a test's. */
export type SlaT = ReturnType<typeof useTranslations<"metrics.sla">>;

export const COLOUR_CLASS = { green: "badge badge-ok", amber: "badge badge-warn", red: "badge badge-danger", "no-data": "badge" } as const;

/** An alert's state in words; a state the messages do not know shows as it is. */
export function alertStateText(state: string, t: SlaT): string {
  const key = `alertState.${state}` as "alertState.firing";
  return t.has(key) ? t(key) : state;
}

/** 0.8 → "80% left"; an overspent budget says by how much. */
export function budgetText(left: number | null, t: SlaT): string {
  if (left === null) return "—";
  if (left < 0) return t("spent", { pct: String(Math.round(-left * 100)) });
  return t("left", { pct: String(Math.round(left * 1000) / 10) });
}

/** 14.4 → "14×"; null while there is no traffic. Digits in the page's language. */
export function burnText(rate: number | null, locale: Locale): string {
  if (rate === null) return "—";
  const digits = rate >= 10 ? 0 : rate >= 1 ? 1 : 2;
  return `${new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(rate)}×`;
}

/** What an SLI promises, in words: "99.9% without 5xx", "99% within 1000 ms". */
export function objectiveText(s: Pick<SliSla, "kind" | "objective" | "thresholdMs">, t: SlaT, locale: Locale): string {
  const pct = formatNumber(locale, Math.round(s.objective * 100_000) / 1000, 3);
  return s.kind === "availability" ? t("without5xx", { pct }) : t("within", { pct, ms: String(s.thresholdMs) });
}

/** The endpoint's least-budget SLI: what the overview shows as "budget left". */
export function tightestBudget(e: Pick<EndpointSla, "slis">): number | null {
  const lefts = e.slis.map((s) => s.budgetLeft).filter((v): v is number => v !== null);
  return lefts.length ? Math.min(...lefts) : null;
}
