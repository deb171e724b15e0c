"use client";

import { useTranslations } from "use-intl";
import { Loading } from "@/components/ui/field";
import { LineChartCard } from "./line-chart-card";
import { MetricsOff } from "./metrics-off";
import { useChartText, type ChartScope } from "./chart-text";
import type { ChartNote, MetricsOffWhy } from "@/server/metrics/chart-keys";

type Charts = { available: true; charts: { id: string; unit: string; rows: Record<string, number | null>[]; series: string[]; note?: ChartNote }[] } | { available: false; reason?: MetricsOffWhy };

/** A panel's charts once loaded, or why there are none (Prometheus off or slow). */
export function ChartGrid({ pending, data, scope }: { pending: boolean; data: Charts | undefined; scope: ChartScope }) {
  const t = useTranslations("metrics");
  const text = useChartText(scope);
  if (pending) return <Loading what={t("charts")} />;
  if (!data?.available) return <MetricsOff reason={data?.reason} />;
  return (
    <div className="grid-2">
      {data.charts.map((c) => (
        <LineChartCard key={c.id} title={text.title(c.id)} unit={text.unit(c.unit)} rows={c.rows} series={c.series} seriesLabel={text.series} note={text.note(c.note)} />
      ))}
    </div>
  );
}
