"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { PageHead } from "@/components/ui/page-head";
import { Empty, Loading } from "@/components/ui/field";
import { useFormat } from "@/components/i18n/use-format";
import { ControllerRegistration, OwnRetention } from "./controller-record";
import { Legal } from "@/components/ui/legal";

/** The audit actions a tenant is shown when Kule's staff read its data, by their message key. */
const ACTION = { "calllog.read": "read", "calllog.search": "search", "calllog.export": "export", "kvkk.subject.find": "subjectFind" } as const;

/** The tenant as data controller: where Kule (the processor) served its calls, under which safeguards, and who of Kule's staff read its data. */
export function ControllerPage() {
  const trpc = useTRPC();
  const t = useTranslations("kvkk");
  const fmt = useFormat();
  const v = useQuery(trpc.kvkk.controller.queryOptions());
  if (v.isPending) return <Loading what={t("controller.loading")} />;
  if (v.isError) return <p className="error">{v.error.message}</p>;
  const { tenant, safeguards, residency, staffReads, retention } = v.data;
  const action = (a: string) => (a in ACTION ? t(`controller.actions.${ACTION[a as keyof typeof ACTION]}`) : a);
  return (
    <>
      <PageHead title={t("controller.title")}>
        <Legal id="kvkk.controller.intro" values={{ tenant: tenant.name }} /> {tenant.kvkk ? t("controller.servedKvkk") : <Legal id="kvkk.controller.served" />}
      </PageHead>
      <ControllerRegistration tenant={tenant} />
      <OwnRetention key={`${retention.days}-${retention.method}`} retention={retention} />
      <section className="panel" aria-label={t("controller.transfersAria")}>
        <h2>
          <Legal id="kvkk.controller.transfersTitle" />
        </h2>
        {!safeguards.length ? (
          <Empty title={t("controller.noSafeguards")} />
        ) : (
          <ul>
            {safeguards.map((s) => (
              <li key={s.id}>
                {t("controller.safeguard", { destination: s.destination, mechanism: t(`mechanisms.${s.mechanism}`), importer: s.importer, reference: s.reference, date: fmt.dateTime(s.signedAt) })}
                {s.revokedAt ? t("controller.revoked", { date: fmt.dateTime(s.revokedAt) }) : ""}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-label={t("controller.residencyAria")}>
        <h2>{t("controller.residencyTitle")}</h2>
        {!residency.length ? (
          <Empty title={t("controller.noCalls")} />
        ) : (
          <table aria-label={t("controller.residencyTable")}>
            <thead>
              <tr>
                <th>{t("controller.month")}</th>
                <th>{t("controller.region")}</th>
                <th>{t("controller.calls")}</th>
              </tr>
            </thead>
            <tbody>
              {residency.map((c) => (
                <tr key={`${new Date(c.month).toISOString()}-${c.region}`}>
                  <td>{fmt.month(c.month)}</td>
                  <td>{c.incident ? <span className="badge badge-danger">{t("controller.abroad", { region: c.region })}</span> : c.region}</td>
                  <td>{fmt.number(c.calls)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="panel" aria-label={t("controller.staffAria")}>
        <h2>{t("controller.staffTitle")}</h2>
        {!staffReads.length ? (
          <Empty title={t("controller.noStaffReads")} />
        ) : (
          <table aria-label={t("controller.staffTable")}>
            <thead>
              <tr>
                <th>{t("controller.when")}</th>
                <th>{t("controller.who")}</th>
                <th>{t("controller.what")}</th>
              </tr>
            </thead>
            <tbody>
              {staffReads.map((r, i) => (
                <tr key={i}>
                  <td>{fmt.dateTime(r.at)}</td>
                  <td>
                    {r.actorEmail} ({r.role})
                  </td>
                  <td>
                    {action(r.action)}
                    {r.targetId && r.action === "calllog.read" ? `: ${r.targetId}` : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
