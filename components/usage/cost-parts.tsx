"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { useFormat } from "@/components/i18n/use-format";
import { recentMonths } from "./adapters";

/**
 * The month's cost part by part (GPU time, energy, storage, software, operations) with the rule
 * each is shared by (server/finops/breakdown.ts). Staff see the whole bill, the platform's unused
 * part and every tenant's share (or the one tenant given); a tenant user only its own shares (empty
 * when it made no call in the month; a share of 0.00 is shown, not hidden).
 */
export function CostParts({ tenantId }: { tenantId?: string }) {
  const trpc = useTRPC();
  const t = useTranslations("usage.parts");
  const fmt = useFormat();
  const months = recentMonths();
  const [month, setMonth] = useState(months[0]!);
  const query = useQuery(trpc.usage.costBreakdown.queryOptions({ month, ...(tenantId ? { tenantId } : {}) }, { ...PANEL_QUERY, refetchInterval: 30_000 }));
  const money = (v: string) => fmt.money(Number(v), "TRY");
  return (
    <div className="panel" data-testid="cost-parts">
      <h2>{t(tenantId === undefined ? "title" : "titleMine")}</h2>
      <div className="actions">
        <select aria-label={t("month")} value={month} onChange={(e) => setMonth(e.target.value)}>
          {months.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
      </div>
      <QueryState query={query} what={t("title")} isEmpty={(b) => b.parts.every((p) => (p.total === null ? p.tenants.length === 0 : p.total === "0.00"))} empty={<Empty title={t("empty")}>{t("emptyHint")}</Empty>}>
        {(bill) => {
          const staff = bill.parts.some((p) => p.total !== null);
          const tenants = [...new Map(bill.parts.flatMap((p) => p.tenants.map((x) => [x.tenantId, x.name] as const))).entries()];
          return (
            <>
              <table>
                <thead>
                  <tr>
                    <th>{t("part")}</th>
                    <th>{t("rule")}</th>
                    {staff && <th className="num">{t("total")}</th>}
                    {tenants.map(([id, name]) => (
                      <th key={id} className="num">
                        {name}
                      </th>
                    ))}
                    {staff && <th className="num">{t("platform")}</th>}
                  </tr>
                </thead>
                <tbody>
                  {bill.parts.map((p) => (
                    <tr key={p.part} data-part={p.part}>
                      <td>{t(`names.${p.part}`)}</td>
                      <td>{t(`rules.${p.rule}`)}</td>
                      {staff && <td className="num">{money(p.total!)}</td>}
                      {tenants.map(([id]) => (
                        <td key={id} className="num">
                          {money(p.tenants.find((x) => x.tenantId === id)?.amount ?? "0")}
                        </td>
                      ))}
                      {staff && <td className="num">{money(p.platform!)}</td>}
                    </tr>
                  ))}
                </tbody>
              </table>
              <p className="muted">{bill.energy.kwh && bill.energy.perKwh ? t("energy", { kwh: fmt.number(Number(bill.energy.kwh)), price: bill.energy.perKwh, pue: bill.energy.pue ?? "1" }) : t("noEnergy")}</p>
              {bill.unset.length > 0 && <p className="muted">{t("unset", { kinds: bill.unset.map((k) => t(`names.${k}`)).join(", ") })}</p>}
            </>
          );
        }}
      </QueryState>
    </div>
  );
}
