"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { useFormat } from "@/components/i18n/use-format";
import { TURKEY_REGION_PREFIX } from "@/server/shared/regions";
import { TransferRegister } from "./transfer-register";
import { RegionVerification } from "./region-verification";
import { Legal } from "@/components/ui/legal";

/** Which regions served each tenant's calls per month; calls abroad without a safeguard are incidents. And the transfer register. */
export function ResidencyPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const t = useTranslations("kvkk.residency");
  const fmt = useFormat();
  const [range] = useState(() => {
    const to = new Date(Date.now() + 86_400_000);
    return { from: new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() - 2, 1)), to };
  });
  const map = useQuery(trpc.kvkk.residency.queryOptions(range));
  return (
    <section className="panel" aria-label={t("aria")}>
      <h2>{t("title", { from: fmt.month(range.from) })}</h2>
      {map.data?.incidents.length ? (
        <p className="error" role="alert" aria-label={t("incidentsAria")}>
          {<Legal id="kvkk.residency.incidents" values={{ count: map.data.incidents.length, list: map.data.incidents.map((i) => `${i.tenantSlug} ${fmt.month(i.month)} ${i.region} (${fmt.number(i.uncovered)})`).join(", ") }} />}
        </p>
      ) : (
        map.data && <p className="muted">{t("none", { prefix: TURKEY_REGION_PREFIX })}</p>
      )}
      {!map.data?.cells.length ? (
        <Empty title={t("emptyTitle")} />
      ) : (
        <table aria-label={t("tableAria")}>
          <thead>
            <tr>
              <th>{t("tenant")}</th>
              <th>{t("month")}</th>
              <th>{t("region")}</th>
              <th>{t("calls")}</th>
            </tr>
          </thead>
          <tbody>
            {map.data.cells.map((c) => (
              <tr key={`${c.tenantId}-${new Date(c.month).toISOString()}-${c.region}`}>
                <td>
                  {c.tenantSlug} {c.kvkk && <span className="badge badge-kvkk">{t("turkeyOnly")}</span>}
                </td>
                <td>{fmt.month(c.month)}</td>
                <td>{c.incident ? <span className="badge badge-danger">{c.region}</span> : c.region}</td>
                <td>{fmt.number(c.calls)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <TransferRegister range={range} />
      <RegionVerification canWrite={canWrite} />
    </section>
  );
}
