"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { RangePicker, type Range } from "./range-picker";
import { ChartGrid } from "./chart-grid";
import { PanelHead } from "@/components/ui/page-head";

/** A tenant's own traffic: the server scopes every query to the signed-in user's tenant. */
export function TenantCharts() {
  const trpc = useTRPC();
  const [range, setRange] = useState<Range>("1h");
  const t = useTranslations("metrics");
  const charts = useQuery(trpc.metrics.tenantCharts.queryOptions({ range }, { refetchInterval: 5000, placeholderData: (prev) => prev }));
  return (
    <div className="panel">
      <PanelHead title={t("yourUsage")}>
        <RangePicker value={range} onChange={setRange} />
      </PanelHead>
      <ChartGrid pending={charts.isPending} data={charts.data} scope="tenant" />
    </div>
  );
}
