"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Loading } from "@/components/ui/field";
import { LineChartCard } from "./line-chart-card";
import { MetricsOff } from "./metrics-off";
import { RangePicker, type Range } from "./range-picker";

/** A tenant's own traffic: the server scopes every query to the signed-in user's tenant. */
export function TenantCharts() {
  const trpc = useTRPC();
  const [range, setRange] = useState<Range>("1h");
  const charts = useQuery(trpc.metrics.tenantCharts.queryOptions({ range }, { refetchInterval: 5000, placeholderData: (prev) => prev }));
  return (
    <div className="panel">
      <div className="page-head" style={{ marginBottom: 8 }}>
        <h2 style={{ margin: 0 }}>Your usage and latency</h2>
        <RangePicker value={range} onChange={setRange} />
      </div>
      {charts.isPending ? (
        <Loading what="charts" />
      ) : !charts.data?.available ? (
        <MetricsOff reason={charts.data?.reason} />
      ) : (
        <div className="grid-2">
          {charts.data.charts.map((c) => (
            <LineChartCard key={c.id} title={c.title} unit={c.unit} rows={c.rows} series={c.series} />
          ))}
        </div>
      )}
    </div>
  );
}
