"use client";

import { Loading } from "@/components/ui/field";
import { LineChartCard } from "./line-chart-card";
import { MetricsOff } from "./metrics-off";

type Charts = { available: true; charts: { id: string; title: string; unit: string; rows: Record<string, number | null>[]; series: string[]; note?: string }[] } | { available: false; reason?: string };

/** A panel's charts once loaded, or why there are none (Prometheus off or slow). */
export function ChartGrid({ pending, data }: { pending: boolean; data: Charts | undefined }) {
  if (pending) return <Loading what="charts" />;
  if (!data?.available) return <MetricsOff reason={data?.reason} />;
  return (
    <div className="grid-2">
      {data.charts.map((c) => (
        <LineChartCard key={c.id} title={c.title} unit={c.unit} rows={c.rows} series={c.series} note={c.note} />
      ))}
    </div>
  );
}
