"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useLocale, useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Field, Loading } from "@/components/ui/field";
import { LineChartCard } from "./line-chart-card";
import { MetricsOff } from "./metrics-off";
import { exactValue } from "./format-value";
import { useFormat } from "@/components/i18n/use-format";
import { RangePicker, type Range } from "./range-picker";

/** Operators' raw PromQL: a chart of up to 20 series and a table of every series' latest value. */
export function Explore() {
  const trpc = useTRPC();
  const [text, setText] = useState('sum by (endpoint) (rate(kule_gateway_requests_total[1m]))');
  const [range, setRange] = useState<Range>("15m");
  const [asked, setAsked] = useState<string | null>(null);
  const result = useQuery(trpc.metrics.explore.queryOptions({ query: asked ?? "", range }, { enabled: asked !== null, retry: false, meta: { handlesErrors: true } }));
  const queryError = result.error ? (fieldErrorsOf(result.error).query?.[0] ?? result.error.message) : null;
  const d = result.data;
  const t = useTranslations("metrics.explore");
  const tm = useTranslations("metrics");
  const locale = useLocale();
  const fmt = useFormat();
  return (
    <>
      <form
        className="panel"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked(text);
          if (asked === text) void result.refetch();
        }}
      >
        <Field id="promql" label="PromQL" hint={t("promqlHint")} errors={queryError ? [queryError] : undefined}>
          <textarea id="promql" rows={3} className="mono" value={text} onChange={(e) => setText(e.target.value)} style={{ width: "100%" }} />
        </Field>
        <div className="actions">
          <button type="submit" className="primary">
            {t("run")}
          </button>
          <RangePicker value={range} onChange={setRange} />
        </div>
      </form>
      {queryError && (
        <div className="form-error" role="note" aria-label={t("queryError")}>
          <b>{t("refused")}</b> {queryError}
        </div>
      )}
      {asked !== null && result.isFetching && !d && <Loading what={t("what")} />}
      {d && !d.available && <MetricsOff reason={d.reason} />}
      {d?.available && !queryError && (
        <>
          <LineChartCard title={t("result")} unit="" rows={d.rows} series={d.series} height={260} />
          {d.truncated && <p className="muted">{t("truncated", { shown: d.series.length, total: d.totalSeries })}</p>}
          <div className="panel">
            <table>
              <thead>
                <tr>
                  <th>{t("colSeries")}</th>
                  <th>{t("colLatest")}</th>
                  <th>{t("colAt")}</th>
                </tr>
              </thead>
              <tbody>
                {d.table.map((r) => (
                  <tr key={r.series}>
                    <td className="mono">{r.series}</td>
                    <td>{exactValue(r.value, "", locale, tm("noData"))}</td>
                    <td>{fmt.time(r.at, { seconds: true })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {d.table.length === 0 && <p className="muted">{t("noSeries")}</p>}
          </div>
        </>
      )}
    </>
  );
}
