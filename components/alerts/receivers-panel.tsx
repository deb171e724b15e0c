"use client";

import { useState } from "react";
import { useTranslations } from "use-intl";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Field } from "@/components/ui/field";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { FormActions } from "@/components/ui/page-head";
import { useToast } from "@/components/ui/toast";

type Kind = "webhook" | "slack" | "email";
const SEVERITIES = ["page", "ticket", "warning"] as const;
const KINDS: Kind[] = ["webhook", "slack", "email"];
const list = (s: string) => s.split(",").map((x) => x.trim()).filter(Boolean);

/** Where Alertmanager sends alerts besides Kule: the list, and (for operators) the form that adds one. */
export function ReceiversPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const toast = useToast();
  const receivers = useQuery(trpc.alert.receivers.queryOptions(undefined, PANEL_QUERY));
  const [adding, setAdding] = useState(false);
  const t = useTranslations("alerts.receivers");
  const tsev = useTranslations("alerts.severity");
  const remove = useMutation(trpc.alert.deleteReceiver.mutationOptions({ onSuccess: () => void receivers.refetch().then(() => toast.success(t("removed"))) }));
  return (
    <>
      <div className="panel" role="region" aria-label={t("region")}>
        <h2>{t("title")}</h2>
        <p className="muted">{t("intro")}</p>
        <QueryState query={receivers} what={t("what")} empty={<p className="muted">{t("empty")} {canWrite ? t("emptyWrite") : t("emptyRead")}</p>}>
          {(rows) => (
            <table>
              <thead>
                <tr>
                  <th>{t("colName")}</th>
                  <th>{t("colKind")}</th>
                  <th>{t("colWhere")}</th>
                  <th>{t("colEndpoints")}</th>
                  <th>{t("colSeverities")}</th>
                  {canWrite && <th />}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => {
                  const s = r.settings as Record<string, string | null>;
                  return (
                    <tr key={r.id}>
                      <td>{r.name}</td>
                      <td>{t(`kind.${r.kind}`)}</td>
                      <td>
                        <code>{r.kind === "email" ? t("emailVia", { to: s.to ?? "", host: s.smarthost ?? "" }) : s.url}</code>
                      </td>
                      <td>{r.endpointSlugs.length ? r.endpointSlugs.join(", ") : t("all")}</td>
                      <td>{r.severities.length ? r.severities.map((x) => (tsev.has(x as "page") ? tsev(x as "page") : x)).join(", ") : t("all")}</td>
                      {canWrite && (
                        <td>
                          <button type="button" onClick={() => remove.mutate({ id: r.id })} disabled={remove.isPending}>
                            {t("remove")}
                          </button>
                        </td>
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </QueryState>
        {canWrite && !adding && (
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            {t("add")}
          </button>
        )}
      </div>
      {adding && <ReceiverForm onDone={() => setAdding(false)} />}
    </>
  );
}

function ReceiverForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const saveOptions = useSaveOptions();
  const t = useTranslations("alerts.receivers");
  const tsev = useTranslations("alerts.severity");
  const [f, setF] = useState({ kind: "webhook" as Kind, name: "", url: "", channel: "", to: "", from: "", smarthost: "", username: "", password: "", endpoints: "", severities: [] as string[] });
  const save = useMutation(
    trpc.alert.createReceiver.mutationOptions(
      saveOptions<{ alertmanager: { state: string; message?: string } }>({
        refresh: trpc.alert.receivers.queryKey(),
        toast: (r) => (r.alertmanager.state === "failed" ? t("savedButFailed", { message: r.alertmanager.message ?? "" }) : r.alertmanager.state === "off" ? t("savedOff") : t("saved")),
        then: onDone,
      }),
    ),
  );
  const errors = fieldErrorsOf(save.error);
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const settings = () => {
    if (f.kind === "webhook") return { url: f.url };
    if (f.kind === "slack") return { url: f.url, channel: f.channel || null };
    return { to: f.to, from: f.from, smarthost: f.smarthost, username: f.username || null, password: f.password || null, requireTls: true };
  };
  return (
    <FormPanel title={t("formTitle")} error={save.error} onSubmit={() => save.mutate({ kind: f.kind, name: f.name, settings: settings(), endpointSlugs: list(f.endpoints), severities: f.severities } as never)}>
      <div className="grid-2">
        <Field id="rc-kind" label={t("kindLabel")}>
          <select id="rc-kind" value={f.kind} onChange={(e) => setF({ ...f, kind: e.target.value as Kind })}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`kind.${k}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="rc-name" label={t("name")} hint={t("nameHint")} errors={errors.name}>
          <input id="rc-name" value={f.name} onChange={set("name")} />
        </Field>
        {f.kind !== "email" ? (
          <Field id="rc-url" label={f.kind === "slack" ? t("slackUrl") : t("webhookUrl")} hint={t("urlHint")} errors={errors.settings}>
            <input id="rc-url" value={f.url} onChange={set("url")} />
          </Field>
        ) : (
          <>
            <Field id="rc-to" label={t("to")}>
              <input id="rc-to" value={f.to} onChange={set("to")} />
            </Field>
            <Field id="rc-from" label={t("from")}>
              <input id="rc-from" value={f.from} onChange={set("from")} />
            </Field>
            {/* amtool's reason for refusing the config (usually the server) shows here. */}
            <Field id="rc-smarthost" label={t("smtp")} hint={t("smtpHint")} errors={errors.settings}>
              <input id="rc-smarthost" value={f.smarthost} onChange={set("smarthost")} />
            </Field>
            <Field id="rc-username" label={t("smtpUser")}>
              <input id="rc-username" value={f.username} onChange={set("username")} />
            </Field>
            <Field id="rc-password" label={t("smtpPassword")}>
              <input id="rc-password" type="password" value={f.password} onChange={set("password")} />
            </Field>
          </>
        )}
        {f.kind === "slack" && (
          <Field id="rc-channel" label={t("channel")} hint="#kule-alerts">
            <input id="rc-channel" value={f.channel} onChange={set("channel")} />
          </Field>
        )}
        <Field id="rc-endpoints" label={t("endpoints")} hint={t("endpointsHint")} errors={errors.endpointSlugs}>
          <input id="rc-endpoints" value={f.endpoints} onChange={set("endpoints")} />
        </Field>
        <fieldset>
          <legend>{t("severities")}</legend>
          {SEVERITIES.map((s) => (
            <label key={s} style={{ marginRight: 12 }}>
              <input type="checkbox" checked={f.severities.includes(s)} onChange={(e) => setF({ ...f, severities: e.target.checked ? [...f.severities, s] : f.severities.filter((x) => x !== s) })} /> {tsev(s)}
            </label>
          ))}
        </fieldset>
      </div>
      <FormActions submit={t("submit")} pending={save.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
