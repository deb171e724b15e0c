"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { Empty, Loading } from "@/components/ui/field";
import { useDraftLanguage } from "./draft-language";
import { useFormat } from "@/components/i18n/use-format";
import { Legal } from "@/components/ui/legal";

/** Breach incidents with the 72-hour clock to the Board (KVKK Art. 12(5), Board decision 2019/10). */
export function BreachesPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("kvkk.breaches");
  const fmt = useFormat();
  const list = useQuery(trpc.kvkk.breaches.list.queryOptions());
  const [openId, setOpenId] = useState<string | null>(null);
  const notice = useDraftLanguage();
  const detail = useQuery({ ...trpc.kvkk.breaches.get.queryOptions({ id: openId ?? "", noticeLocale: notice.locale }), enabled: !!openId });
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.kvkk.breaches.list.queryKey() });
  const create = useMutation(trpc.kvkk.breaches.create.mutationOptions({ onSuccess: () => (toast.success(t("created")), refresh()), onError: (e) => toast.error(e.message) }));
  const update = useMutation(trpc.kvkk.breaches.update.mutationOptions({ onSuccess: () => (toast.success(t("updated")), refresh()), onError: (e) => toast.error(e.message) }));
  const running = list.data?.filter((b) => b.status === "open") ?? [];
  const label = (group: "statuses" | "detectors", v: string) => (t.has(`${group}.${v}` as "statuses.open") ? t(`${group}.${v}` as "statuses.open") : v);
  return (
    <section className="panel" aria-label={t("aria")}>
      <h2>
        <Legal id="kvkk.breaches.title" />
      </h2>
      <p className="muted">
        <Legal id="kvkk.breaches.intro" />
      </p>
      {running.length > 0 && (
        <p className="error" role="alert" aria-label={t("openAria")}>
          {running.map((b) => (b.late ? t("late", { title: b.shownTitle }) : t("hoursLeft", { title: b.shownTitle, hours: b.hoursLeft === null ? "—" : fmt.number(b.hoursLeft) }))).join(" · ")}
        </p>
      )}
      {list.isPending ? (
        <Loading what={t("loading")} />
      ) : !list.data?.length ? (
        <Empty title={t("emptyTitle")}>{canWrite ? ` ${t("emptyHint")}` : ""}</Empty>
      ) : (
        <table aria-label={t("tableAria")}>
          <thead>
            <tr>
              <th>{t("aware")}</th>
              <th>{t("incident")}</th>
              <th>{t("foundBy")}</th>
              <th>{t("boardDue")}</th>
              <th>{t("status")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data.map((b) => (
              <tr key={b.id}>
                <td>{fmt.dateTime(b.awareAt)}</td>
                <td>{b.shownTitle}</td>
                <td>{label("detectors", b.detector)}</td>
                <td className={b.late ? "error" : undefined}>{b.boardNotifiedAt ? t("notifiedAt", { date: fmt.dateTime(b.boardNotifiedAt) }) : fmt.dateTime(b.boardDueAt)}</td>
                <td>{label("statuses", b.status)}</td>
                <td className="actions">
                  <button onClick={() => setOpenId(openId === b.id ? null : b.id)}>{openId === b.id ? t("close") : t("affectedAndNotices")}</button>
                  {canWrite && !b.boardNotifiedAt && (
                    <button onClick={() => confirm(t("confirmNotified")) && update.mutate({ id: b.id, expectedUpdatedAt: b.updatedAt, title: b.title, description: b.description, status: "board_notified", boardNotifiedAt: new Date() })}>{t("boardNotified")}</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {openId && detail.data && (
        <div aria-label={t("detailAria")}>
          <h3>{t("affectedTitle")}</h3>
          {!detail.data.affected.length ? (
            <p className="muted">{detail.data.incident.occurredFrom ? t("noCalls") : t("noCallsSetWhen")}</p>
          ) : (
            <ul>
              {detail.data.affected.map((x) => (
                <li key={x.tenantId}>
                  {x.subjectsAtMost > x.subjects
                    ? t("affectedLineRange", { tenant: x.tenantSlug ?? x.tenantId, calls: fmt.number(x.calls), subjects: fmt.number(x.subjects), subjectsAtMost: fmt.number(x.subjectsAtMost), versions: fmt.number(x.keyVersions) })
                    : t("affectedLine", { tenant: x.tenantSlug ?? x.tenantId, calls: fmt.number(x.calls), subjects: fmt.number(x.subjects) })}
                </li>
              ))}
            </ul>
          )}
          {detail.data.notices.length > 0 && <p>{notice.picker}</p>}
          {detail.data.notices.map((n) => (
            <details key={n.tenantId}>
              <summary>{t("noticeDraft", { tenant: n.tenantId })}</summary>
              <pre lang={n.locale} style={{ whiteSpace: "pre-wrap" }}>
                {n.text}
              </pre>
            </details>
          ))}
        </div>
      )}
      {canWrite && (
        <button
          onClick={() => {
            const title = prompt(t("promptTitle"));
            if (!title) return;
            const description = prompt(t("promptHow")) ?? "";
            const aware = prompt(t("promptAware"));
            create.mutate({ title, description, awareAt: aware ? new Date(`${aware.replace(" ", "T")}:00+03:00`) : new Date() });
          }}
        >
          {t("record")}
        </button>
      )}
    </section>
  );
}
