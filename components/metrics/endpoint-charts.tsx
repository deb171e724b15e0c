"use client";

import { useState } from "react";
import { useSearchParams } from "next/navigation";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { RANGES, RangePicker, type Range } from "./range-picker";
import { ChartGrid } from "./chart-grid";
import { PanelHead } from "@/components/ui/page-head";

const DEFAULT_RANGE: Range = "15m";

/** Starts loading the charts' default range (for a page that renders them only after its own data). */
export function usePrefetchEndpointCharts(endpointId: string) {
  const trpc = useTRPC();
  // Subscribes without re-rendering the caller: EndpointCharts reads the same cache entry.
  useQuery({ ...trpc.metrics.endpointCharts.queryOptions({ endpointId, range: DEFAULT_RANGE }), notifyOnChangeProps: [] });
}

/** The endpoint's live charts, refreshed every 5 s; when Prometheus is off the panel says why and the page works on. */
export function EndpointCharts({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  // An alert's "charts" link opens the range that reaches back to when it fired (?range=6h#charts).
  const asked = useSearchParams().get("range");
  const [range, setRange] = useState<Range>(RANGES.find((r) => r === asked) ?? DEFAULT_RANGE);
  const charts = useQuery(trpc.metrics.endpointCharts.queryOptions({ endpointId, range }, { refetchInterval: 5000, placeholderData: (prev) => prev }));
  const t = useTranslations("metrics");
  return (
    <div className="panel" id="charts">
      <PanelHead title={t("liveMetrics")}>
        <GrafanaDownload endpointId={endpointId} />
        <RangePicker value={range} onChange={setRange} />
      </PanelHead>
      <ChartGrid pending={charts.isPending} data={charts.data} scope="endpoint" />
    </div>
  );
}

/** Saves the same panels as a Grafana dashboard JSON file. */
function GrafanaDownload({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const t = useTranslations("metrics");
  const download = async () => {
    setBusy(true);
    try {
      const { fileName, dashboard } = await qc.fetchQuery(trpc.metrics.grafanaDashboard.queryOptions({ endpointId }));
      const url = URL.createObjectURL(new Blob([JSON.stringify(dashboard, null, 2)], { type: "application/json" }));
      const a = Object.assign(document.createElement("a"), { href: url, download: fileName });
      a.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      toast.error(e instanceof Error ? e.message : t("grafanaFailed"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" onClick={() => void download()} disabled={busy}>
      {t("grafana")}
    </button>
  );
}
