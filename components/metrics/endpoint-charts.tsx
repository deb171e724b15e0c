"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Loading } from "@/components/ui/field";
import { LineChartCard } from "./line-chart-card";

const RANGES = ["15m", "1h", "6h", "24h", "7d"] as const;

/** The endpoint's live charts, refreshed every 5 s; when Prometheus is off the panel says why and the page works on. */
export function EndpointCharts({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const [range, setRange] = useState<(typeof RANGES)[number]>("15m");
  const charts = useQuery(trpc.metrics.endpointCharts.queryOptions({ endpointId, range }, { refetchInterval: 5000, placeholderData: (prev) => prev }));
  return (
    <div className="panel">
      <div className="page-head" style={{ marginBottom: 8 }}>
        <h2 style={{ margin: 0 }}>Live metrics</h2>
        <div className="actions" role="group" aria-label="Time range">
          {RANGES.map((r) => (
            <button key={r} className={r === range ? "primary" : undefined} aria-pressed={r === range} onClick={() => setRange(r)}>
              {r}
            </button>
          ))}
        </div>
      </div>
      {charts.isPending ? (
        <Loading what="charts" />
      ) : !charts.data?.available ? (
        <div className="form-error" role="note" data-testid="metrics-off">
          <b>Metrics are off.</b> {charts.data?.reason} Install Prometheus (Debian/Ubuntu: <code>sudo apt-get install -y prometheus</code>; macOS:{" "}
          <code>brew install prometheus</code>) and restart <code>npm run demo</code>.
        </div>
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
