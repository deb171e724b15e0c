"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { PageHead } from "@/components/ui/page-head";
import { Empty, Field, Loading } from "@/components/ui/field";
import { useFormat } from "@/components/i18n/use-format";
import { useDraftLanguage } from "./draft-language";
import { CHANNELS, RIGHTS, type Channel, type Right } from "./rights";
import { Legal } from "@/components/ui/legal";

const today = () => new Date().toISOString().slice(0, 10);
const blank = () => ({ user: "", tenantId: "", channel: "kep", receivedAt: today(), identityCheck: "", right: "erasure", reference: "" });

/** Data subjects' applications to a tenant (the data controller): intake, the 30-day clock, answer, refusal or erasure. */
export function ApplicationsPage({ canWrite, staff }: { canWrite: boolean; staff: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("kvkk");
  const fmt = useFormat();
  const list = useQuery(trpc.kvkk.applications.list.queryOptions());
  const [f, setF] = useState(blank);
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.kvkk.applications.list.queryKey() });
  const done = (what: string) => ({ onSuccess: () => (toast.success(what), refresh()), onError: (e: { message: string }) => toast.error(e.message) });
  const open = useMutation(trpc.kvkk.applications.open.mutationOptions({ onSuccess: (a) => (toast.success(t("applications.opened", { count: a.rowsFound, date: fmt.dateTime(a.dueAt) })), setF(blank()), refresh()) }));
  const answer = useMutation(trpc.kvkk.applications.answer.mutationOptions(done(t("applications.answered"))));
  const refuse = useMutation(trpc.kvkk.applications.refuse.mutationOptions(done(t("applications.refusedDone"))));
  const answerIn = useDraftLanguage();
  const erase = useMutation(trpc.kvkk.applications.erase.mutationOptions(done(t("applications.erased"))));
  const errs = (open.error?.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors;
  const set = (k: keyof ReturnType<typeof blank>) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const overdue = list.data?.filter((a) => a.overdue) ?? [];
  const status = (s: string) => (t.has(`applications.statuses.${s}` as "applications.statuses.answered") ? t(`applications.statuses.${s}` as "applications.statuses.answered") : s);
  return (
    <>
      <PageHead title={t("applications.title")}>
        <Legal id="kvkk.applications.intro" /> {staff ? t("applications.introStaff") : t("applications.introTenant")}
      </PageHead>
      {overdue.length > 0 && (
        <p className="error" role="alert" aria-label={t("applications.overdueAria")}>
          {t("applications.overdue", { count: overdue.length, list: overdue.map((a) => a.reference ?? a.id).join(", ") })}
        </p>
      )}
      <section className="panel" aria-label={t("applications.aria")}>
        {list.isPending ? (
          <Loading what={t("applications.loading")} />
        ) : !list.data?.length ? (
          <Empty title={t("applications.emptyTitle")}>{canWrite ? ` ${t("applications.emptyHint")}` : ""}</Empty>
        ) : (
          <>
          {canWrite && list.data.some((a) => a.open && a.right === "erasure") && <p>{answerIn.picker}</p>}
          <table aria-label={t("applications.tableAria")}>
            <thead>
              <tr>
                <th>{t("applications.received")}</th>
                <th>{t("applications.right")}</th>
                <th>{t("applications.channel")}</th>
                <th>{t("applications.callsFound")}</th>
                <th>{t("applications.due")}</th>
                <th>{t("applications.status")}</th>
                {canWrite && <th />}
              </tr>
            </thead>
            <tbody>
              {list.data.map((a) => (
                <tr key={a.id}>
                  <td>
                    {fmt.dateTime(a.receivedAt)} {a.reference && <div className="muted">{a.reference}</div>}
                  </td>
                  <td>{a.right ? t(`rights.${a.right}`) : "—"}</td>
                  <td>
                    {a.channel ? t(`channels.${a.channel}`) : "—"} · {a.identityCheck}
                  </td>
                  <td>{fmt.number(a.rowsFound)}</td>
                  <td className={a.overdue ? "error" : undefined}>
                    {a.open ? (a.daysLeft! < 0 ? t("applications.daysLate", { date: fmt.dateTime(a.dueAt), days: -a.daysLeft! }) : t("applications.daysLeft", { date: fmt.dateTime(a.dueAt), days: a.daysLeft! })) : "—"}
                  </td>
                  <td>
                    {status(a.status)}
                    {a.answer && <div className="muted">{a.answer}</div>}
                    {a.refusalReason && <div className="muted">{t("applications.refused", { reason: a.refusalReason })}</div>}
                  </td>
                  {canWrite && (
                    <td className="actions">
                      {a.open && (
                        <>
                          {a.right === "erasure" && (
                            <button className="danger" onClick={() => confirm(t("applications.confirmErase", { count: a.rowsFound })) && erase.mutate({ id: a.id, expectedUpdatedAt: a.updatedAt, method: "delete", answerLocale: answerIn.locale })}>
                              {t("applications.erase")}
                            </button>
                          )}
                          <button onClick={() => { const text = prompt(t("applications.promptAnswer")); if (text) answer.mutate({ id: a.id, expectedUpdatedAt: a.updatedAt, answer: text }); }}>{t("applications.answer")}</button>
                          <button onClick={() => { const text = prompt(t("applications.promptRefuse")); if (text) refuse.mutate({ id: a.id, expectedUpdatedAt: a.updatedAt, reason: text }); }}>{t("applications.refuse")}</button>
                        </>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          </>
        )}
      </section>
      {canWrite && (
        <section className="panel" aria-label={t("applications.formAria")}>
          <h2>{t("applications.formTitle")}</h2>
          <form
            className="actions"
            style={{ alignItems: "flex-end", flexWrap: "wrap" }}
            onSubmit={(e) => {
              e.preventDefault();
              open.mutate({ ...f, tenantId: f.tenantId || null, reference: f.reference || null, channel: f.channel as Channel, right: f.right as Right });
            }}
          >
            <Field id="app-user" label={t("applications.user")} hint={t("applications.userHint")} errors={errs?.user}>
              <input id="app-user" value={f.user} onChange={set("user")} />
            </Field>
            {staff && (
              <Field id="app-tenant" label={t("applications.tenant")} errors={errs?.tenantId}>
                <input id="app-tenant" value={f.tenantId} onChange={set("tenantId")} />
              </Field>
            )}
            <Field id="app-right" label={t("applications.right")} errors={errs?.right}>
              <select id="app-right" value={f.right} onChange={set("right")}>
                {RIGHTS.map((k) => (
                  <option key={k} value={k}>
                    {t(`rights.${k}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="app-channel" label={t("applications.receivedBy")} errors={errs?.channel}>
              <select id="app-channel" value={f.channel} onChange={set("channel")}>
                {CHANNELS.map((k) => (
                  <option key={k} value={k}>
                    {t(`channels.${k}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="app-received" label={t("applications.receivedOn")} errors={errs?.receivedAt}>
              <input id="app-received" type="date" value={f.receivedAt} onChange={set("receivedAt")} />
            </Field>
            <Field id="app-identity" label={t("applications.identity")} errors={errs?.identityCheck}>
              <input id="app-identity" value={f.identityCheck} onChange={set("identityCheck")} />
            </Field>
            <Field id="app-ref" label={t("applications.reference")} errors={errs?.reference}>
              <input id="app-ref" value={f.reference} onChange={set("reference")} />
            </Field>
            <button type="submit" className="primary" disabled={open.isPending}>
              {t("applications.submit")}
            </button>
            {open.error && !errs && <p className="error">{open.error.message}</p>}
          </form>
        </section>
      )}
    </>
  );
}
