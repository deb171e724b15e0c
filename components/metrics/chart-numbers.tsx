"use client";

import { useLocale, useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
import { exactValue } from "./format-value";
import { summarise } from "./chart-summary";

/**
 * A chart's text equivalent: each series' latest value and its range over the window, in a
 * table a screen reader or keyboard reaches (the lines and their hover are for the mouse).
 */
export function ChartNumbers({ title, unit, rows, series, seriesLabel }: { title: string; unit: string; rows: Record<string, number | null>[]; series: string[]; seriesLabel: (s: string) => string }) {
  const t = useTranslations("metrics.numbers");
  const noData = useTranslations("metrics")("noData");
  const locale = useLocale();
  const fmt = useFormat();
  const v = (x: number | null) => exactValue(x, unit, locale, noData);
  return (
    <details className="chart-numbers">
      <summary>{t("summary")}</summary>
      <table aria-label={t("caption", { title })}>
        <thead>
          <tr>
            <th scope="col">{t("series")}</th>
            <th scope="col">{t("latest")}</th>
            <th scope="col">{t("min")}</th>
            <th scope="col">{t("mean")}</th>
            <th scope="col">{t("max")}</th>
          </tr>
        </thead>
        <tbody>
          {summarise(rows, series).map((s) => (
            <tr key={s.series}>
              <th scope="row">{seriesLabel(s.series)}</th>
              <td>
                {v(s.latest)}
                {s.latestAt !== null && <span className="muted"> · {fmt.dateTime(s.latestAt)}</span>}
              </td>
              <td>{v(s.min)}</td>
              <td>{v(s.mean)}</td>
              <td>{v(s.max)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
