"use client";

import { useState } from "react";
import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Field } from "@/components/ui/field";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { FormActions } from "@/components/ui/page-head";

/** Maintenance windows: Alertmanager mutes an endpoint's (or an alert's) notifications until they end. */
export function SilencesPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const silences = useQuery(trpc.alert.silences.queryOptions(undefined, { ...PANEL_QUERY, refetchInterval: 10_000 }));
  const expire = useMutation(trpc.alert.expireSilence.mutationOptions({ onSuccess: () => void silences.refetch() }));
  const [adding, setAdding] = useState(false);
  const t = useTranslations("alerts.silences");
  const fmt = useFormat();
  return (
    <>
      <div className="panel" role="region" aria-label={t("region")}>
        <h2>{t("title")}</h2>
        <QueryState query={silences} what={t("what")} isEmpty={(d) => d.available && d.silences.length === 0} empty={<p className="muted">{t("empty")}</p>}>
          {(d) =>
            !d.available ? (
              <p className="muted">{t("off")}</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th>{t("colMutes")}</th>
                    <th>{t("colUntil")}</th>
                    <th>{t("colWhy")}</th>
                    <th>{t("colBy")}</th>
                    {canWrite && <th />}
                  </tr>
                </thead>
                <tbody>
                  {d.silences.map((s) => (
                    <tr key={s.id}>
                      <td>
                        <code>{s.matchers.join(", ")}</code> {s.state === "pending" && <span className="badge">{t("pending")}</span>}
                      </td>
                      <td>{fmt.dateTime(s.endsAt)}</td>
                      <td>{s.comment}</td>
                      <td>{s.createdBy}</td>
                      {canWrite && (
                        <td>
                          <button type="button" onClick={() => expire.mutate({ silenceId: s.id })} disabled={expire.isPending}>
                            {t("endNow")}
                          </button>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </QueryState>
        {canWrite && !adding && (
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            {t("add")}
          </button>
        )}
      </div>
      {adding && <SilenceForm onDone={() => setAdding(false)} />}
    </>
  );
}

function SilenceForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const saveOptions = useSaveOptions();
  const endpoints = useQuery(trpc.endpoint.list.queryOptions());
  const [f, setF] = useState({ endpointSlug: "", alertName: "", minutes: "60", comment: "" });
  const t = useTranslations("alerts.silences");
  const save = useMutation(trpc.alert.createSilence.mutationOptions(saveOptions({ refresh: trpc.alert.silences.queryKey(), toast: () => t("saved"), then: onDone })));
  const errors = fieldErrorsOf(save.error);
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  return (
    <FormPanel
      title={t("formTitle")}
      error={save.error}
      onSubmit={() => save.mutate({ endpointSlug: f.endpointSlug || null, alertName: f.alertName || null, minutes: Number(f.minutes), comment: f.comment })}
    >
      <div className="grid-2">
        <Field id="si-endpoint" label={t("endpoint")} errors={errors.endpointSlug}>
          <select id="si-endpoint" value={f.endpointSlug} onChange={set("endpointSlug")}>
            <option value="">{t("anyEndpoint")}</option>
            {(endpoints.data ?? []).map((e) => (
              <option key={e.id} value={e.slug}>
                {e.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="si-alert" label={t("alert")} hint={t("alertHint")} errors={errors.alertName}>
          <input id="si-alert" value={f.alertName} onChange={set("alertName")} />
        </Field>
        <Field id="si-minutes" label={t("minutes")} errors={errors.minutes}>
          <input id="si-minutes" inputMode="numeric" value={f.minutes} onChange={set("minutes")} />
        </Field>
        <Field id="si-comment" label={t("why")} hint={t("whyHint")} errors={errors.comment}>
          <input id="si-comment" value={f.comment} onChange={set("comment")} />
        </Field>
      </div>
      <FormActions submit={t("submit")} pending={save.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
