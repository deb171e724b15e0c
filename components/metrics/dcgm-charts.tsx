"use client";

import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useChartText } from "./chart-text";
import { useFormat } from "@/components/i18n/use-format";
import { useTRPC } from "@/components/trpc/client";
import { PanelHead } from "@/components/ui/page-head";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { LineChartCard } from "./line-chart-card";
import { MetricsOff } from "./metrics-off";
import { RangePicker, type Range } from "./range-picker";

type Scope = { kind: "node"; hostname: string } | { kind: "gpu"; uuid: string } | { kind: "replica"; replicaId: string };

/** dcgm-exporter's time series of a node's GPUs, of one GPU and its MIG instances, or of a group replica's GPUs; XIDs marked on every chart. */
export function DcgmCharts({ scope }: { scope: Scope }) {
  const trpc = useTRPC();
  const [range, setRange] = useState<Range>("15m");
  const charts = useQuery(trpc.metrics.gpuCharts.queryOptions({ scope, range }, { ...PANEL_QUERY, refetchInterval: 5000, placeholderData: (prev) => prev }));
  const d = charts.data;
  const t = useTranslations("metrics");
  const fmt = useFormat();
  const text = useChartText("gpu");
  const events = d?.available ? d.xidEvents.map((e) => ({ t: e.t, label: `XID ${e.xid}${scope.kind !== "gpu" ? ` (${e.device})` : ""}` })) : [];
  return (
    <>
      {d?.available && d.devices.length > 0 && (
        <p>
          {scope.kind !== "gpu" ? (
            d.devices.map((g) => (
              <Link key={g.uuid} href={`/cluster/gpus/${encodeURIComponent(g.uuid)}`} style={{ marginRight: 12 }}>
                {scope.kind === "replica" ? `${g.hostname} ` : ""}GPU {g.gpu} <span className="muted">({g.modelName})</span>
              </Link>
            ))
          ) : (
            <>
              {t.rich("dcgm.gpuOnNode", {
                model: d.devices[0]!.modelName,
                host: d.devices[0]!.hostname,
                gpu: d.devices[0]!.gpu,
                link: (c) => <Link href={`/cluster/nodes/${encodeURIComponent(d.devices[0]!.hostname)}`}>{c}</Link>,
              })}
            </>
          )}
        </p>
      )}
      <div className="panel">
        <PanelHead title={t("dcgm.title")}>
          <RangePicker value={range} onChange={setRange} />
        </PanelHead>
        {d?.available && d.xidEvents.length > 0 && (
          <div className="form-error" role="note" aria-label={t("dcgm.xidErrors")}>
            {d.xidEvents.map((e) => t("dcgm.xidAt", { xid: String(e.xid), device: e.device, time: fmt.time(e.t, { seconds: true }) })).join("; ")}
          </div>
        )}
        <QueryState query={charts} what={t("dcgm.what")} isEmpty={(data) => !data.available} empty={<MetricsOff what={t("off.gpu")} reason={d?.reason} />}>
          {(data) => (
            <div className="grid-2">{data.available && data.charts.map((c) => <LineChartCard key={c.id} title={text.title(c.id)} unit={text.unit(c.unit)} rows={c.rows} series={c.series} seriesLabel={text.series} events={events} />)}</div>
          )}
        </QueryState>
      </div>
    </>
  );
}
