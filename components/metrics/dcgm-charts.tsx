"use client";

import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { PanelHead } from "@/components/ui/page-head";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { LineChartCard } from "./line-chart-card";
import { MetricsOff } from "./metrics-off";
import { RangePicker, type Range } from "./range-picker";

type Scope = { kind: "node"; hostname: string } | { kind: "gpu"; uuid: string };

/** dcgm-exporter's time series of a node's GPUs or of one GPU and its MIG instances; XIDs marked on every chart. */
export function DcgmCharts({ scope }: { scope: Scope }) {
  const trpc = useTRPC();
  const [range, setRange] = useState<Range>("15m");
  const charts = useQuery(trpc.metrics.gpuCharts.queryOptions({ scope, range }, { ...PANEL_QUERY, refetchInterval: 5000, placeholderData: (prev) => prev }));
  const d = charts.data;
  const events = d?.available ? d.xidEvents.map((e) => ({ t: e.t, label: `XID ${e.xid}${scope.kind === "node" ? ` (${e.device})` : ""}` })) : [];
  return (
    <>
      {d?.available && d.devices.length > 0 && (
        <p>
          {scope.kind === "node" ? (
            d.devices.map((g) => (
              <Link key={g.uuid} href={`/cluster/gpus/${encodeURIComponent(g.uuid)}`} style={{ marginRight: 12 }}>
                GPU {g.gpu} <span className="muted">({g.modelName})</span>
              </Link>
            ))
          ) : (
            <>
              {d.devices[0]!.modelName} on <Link href={`/cluster/nodes/${encodeURIComponent(d.devices[0]!.hostname)}`}>{d.devices[0]!.hostname}</Link>, GPU {d.devices[0]!.gpu}
            </>
          )}
        </p>
      )}
      <div className="panel">
        <PanelHead title="DCGM metrics">
          <RangePicker value={range} onChange={setRange} />
        </PanelHead>
        {d?.available && d.xidEvents.length > 0 && (
          <div className="form-error" role="note" aria-label="XID errors">
            {d.xidEvents.map((e) => `XID ${e.xid} on ${e.device} at ${new Date(e.t).toISOString().slice(11, 19)} UTC`).join("; ")}
          </div>
        )}
        <QueryState query={charts} what="GPU charts" isEmpty={(data) => !data.available} empty={<MetricsOff what="GPU metrics" reason={d?.reason} />}>
          {(data) => (
            <div className="grid-2">{data.available && data.charts.map((c) => <LineChartCard key={c.id} title={c.title} unit={c.unit} rows={c.rows} series={c.series} events={events} />)}</div>
          )}
        </QueryState>
      </div>
    </>
  );
}
