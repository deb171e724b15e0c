"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useFormat } from "@/components/i18n/use-format";
import { Legal } from "@/components/ui/legal";

/** The register of transfers abroad, kept in its own table: it outlives the call log's retention. */
export function TransferRegister({ range }: { range: { from: Date; to: Date } }) {
  const trpc = useTRPC();
  const t = useTranslations("kvkk");
  const fmt = useFormat();
  const transfers = useQuery(trpc.kvkk.transfers.queryOptions(range));
  return (
    <>
      <h3>
        <Legal id="kvkk.transfers.title" />
      </h3>
      <p className="muted">{t("transfers.intro")}</p>
      {!transfers.data?.length ? (
        <p className="muted">{t("transfers.empty")}</p>
      ) : (
        <table aria-label={t("transfers.tableAria")}>
          <thead>
            <tr>
              <th>{t("transfers.tenant")}</th>
              <th>{t("transfers.region")}</th>
              <th>{t("transfers.hour")}</th>
              <th>{t("transfers.calls")}</th>
              <th>{t("transfers.safeguard")}</th>
            </tr>
          </thead>
          <tbody>
            {transfers.data.map((x) => (
              <tr key={x.id}>
                <td>{x.tenantSlug}</td>
                <td>{x.region}</td>
                <td>{fmt.dateTime(x.hour)}</td>
                <td>{fmt.number(x.calls)}</td>
                <td>{x.safeguard ? `${t(`mechanisms.${x.safeguard.mechanism}`)} · ${x.safeguard.importer} · ${x.safeguard.reference}` : <span className="badge badge-danger">{t("transfers.noneIncident")}</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
