"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { useFormat } from "@/components/i18n/use-format";
import { Legal } from "@/components/ui/legal";

export function DestructionRecords() {
  const trpc = useTRPC();
  const t = useTranslations("kvkk");
  const fmt = useFormat();
  const recs = useQuery(trpc.kvkk.destructions.queryOptions({ limit: 50 }));
  return (
    <section className="panel" aria-label={t("destructions.aria")}>
      <h2>{t("destructions.title")}</h2>
      {!recs.data?.length ? (
        <Empty title={t("destructions.emptyTitle")}><Legal id="kvkk.destructions.emptyHint" />
        </Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th>{t("destructions.when")}</th>
              <th>{t("destructions.why")}</th>
              <th>{t("destructions.tenant")}</th>
              <th>{t("destructions.period")}</th>
              <th>{t("destructions.rows")}</th>
              <th>{t("destructions.method")}</th>
              <th>{t("destructions.by")}</th>
              <th>{t("destructions.keptUntil")}</th>
            </tr>
          </thead>
          <tbody>
            {recs.data.map((r) => (
              <tr key={r.id}>
                <td>{fmt.dateTime(r.runAt)}</td>
                <td>{r.reason === "subject_request" ? t("destructions.subjectRequest") : t("destructions.retention")}</td>
                <td className="mono">{r.tenantId ?? (r.partitionsDropped.length ? r.partitionsDropped.join(", ") : t("destructions.all"))}</td>
                <td>
                  {fmt.dateTime(r.periodFrom)} → {fmt.dateTime(r.periodTo)}
                </td>
                <td>{fmt.number(r.rowCount)}</td>
                <td>{r.partitionsDropped.length ? t("destructions.partitionDropped") : t(`methods.${r.method}`)}</td>
                <td>{r.runByEmail ?? t("destructions.scheduled")}</td>
                <td>{fmt.dateTime(r.keepUntil)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
