"use client";

import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { useFormat } from "@/components/i18n/use-format";
import { PeriodSelect, type Period } from "./period-select";
import { PageHead } from "@/components/ui/page-head";
import { FocusDownload } from "./focus-download";
import { CostParts } from "./cost-parts";
import { Pricing } from "./pricing";
import { Overheads } from "./overheads";

const CUR = "TRY";

/** Staff view: tenants ranked, each endpoint's revenue against what it costs to run, idle capacity, and pricing. */
export function CostsPage({ canEditPricing }: { canEditPricing: boolean }) {
  const trpc = useTRPC();
  const t = useTranslations("usage.costs");
  const fmt = useFormat();
  const money = (v: string | number) => fmt.money(Number(v), CUR);
  const [days, setDays] = useState<Period>(30);
  const ranking = useQuery(trpc.usage.ranking.queryOptions({ days }, { ...PANEL_QUERY, refetchInterval: 30_000 }));
  const economics = useQuery(trpc.usage.economics.queryOptions({ days }, { refetchInterval: 30_000 }));
  return (
    <>
      <PageHead title={t("title")} action={<PeriodSelect value={days} onChange={setDays} />}>
        {t("intro")}
      </PageHead>
      {economics.data && (
        <div className="stats">
          <div className="stat">
            <b>{money(economics.data.endpoints.reduce((s, e) => s + Number(e.revenue), 0))}</b>
            <span>{t("revenue")}</span>
          </div>
          <div className="stat">
            <b>{money(economics.data.endpoints.reduce((s, e) => s + Number(e.infraCost), 0))}</b>
            <span>{t("runningCost")}</span>
          </div>
          <div className="stat">
            <b data-testid="idle-cost">{money(economics.data.idle.devicesCost)}</b>
            <span>{t("idle", { hours: fmt.number(Number(economics.data.idle.deviceHours)) })}</span>
          </div>
          <div className="stat">
            <b>{money(economics.data.idle.unusedEndpointCost)}</b>
            <span>{t("unused")}</span>
          </div>
        </div>
      )}
      <div className="panel">
        <h2>{t("rankingTitle")}</h2>
        <QueryState query={ranking} what={t("ranking")} empty={<Empty title={t("noUsage")}>{t("noUsageHint")}</Empty>}>
          {(data) => (
            <table data-testid="ranking">
              <thead>
                <tr>
                  <th>#</th>
                  <th>{t("tenant")}</th>
                  <th>{t("requests")}</th>
                  <th>{t("tokens")}</th>
                  <th>{t("charged")}</th>
                  <th>{t("infraCost")}</th>
                  <th>{t("margin")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((r, i) => (
                  <tr key={r.tenantId}>
                    <td>{i + 1}</td>
                    <td>
                      <Link href={`/usage?tenant=${r.tenantId}`}>{r.name}</Link>
                    </td>
                    <td>{fmt.number(r.requests)}</td>
                    <td>{fmt.number(r.tokens)}</td>
                    <td>{money(r.charged)}</td>
                    <td>{money(r.infraCost)}</td>
                    <td className={Number(r.margin) < 0 ? "error" : undefined}>{money(r.margin)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </div>
      <div className="panel">
        <h2>{t("economicsTitle")}</h2>
        {economics.data && (
          <table data-testid="economics">
            <thead>
              <tr>
                <th>{t("endpoint")}</th>
                <th>{t("requests")}</th>
                <th>{t("deviceHours")}</th>
                <th>{t("revenueCol")}</th>
                <th>{t("runningCostCol")}</th>
                <th>{t("pricePer1M")}</th>
                <th>{t("costPer1M")}</th>
                <th>{t("margin")}</th>
              </tr>
            </thead>
            <tbody>
              {economics.data.endpoints.map((e) => (
                <tr key={e.endpointId}>
                  <td>
                    <Link href={`/endpoints/${e.endpointId}`}>{e.name}</Link>
                  </td>
                  <td>{fmt.number(e.requests)}</td>
                  <td>{fmt.number(Number(e.gpuHours))}</td>
                  <td>{money(e.revenue)}</td>
                  <td>{money(e.infraCost)}</td>
                  <td>{e.pricePer1MTokens ? money(e.pricePer1MTokens) : "—"}</td>
                  <td>{e.costPer1MTokens ? money(e.costPer1MTokens) : "—"}</td>
                  <td className={Number(e.margin) < 0 ? "error" : undefined}>
                    {money(e.margin)} {e.marginPct !== null && <span className="muted">({fmt.percent(e.marginPct / 100, 0)})</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <CostParts />
      <FocusDownload />
      <Pricing canEdit={canEditPricing} />
      <Overheads canEdit={canEditPricing} />
    </>
  );
}
