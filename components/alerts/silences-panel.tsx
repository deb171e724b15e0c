"use client";

import { useState } from "react";
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
  return (
    <>
      <div className="panel" role="region" aria-label="Silences">
        <h2>Silences (maintenance windows)</h2>
        <QueryState query={silences} what="silences" isEmpty={(d) => d.available && d.silences.length === 0} empty={<p className="muted">No silence in force: every alert is delivered.</p>}>
          {(d) =>
            !d.available ? (
              <p className="muted">Alertmanager is off, so alerts reach no one and nothing can be silenced. Install prometheus-alertmanager and restart the demo.</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th>Mutes</th>
                    <th>Until</th>
                    <th>Why</th>
                    <th>By</th>
                    {canWrite && <th />}
                  </tr>
                </thead>
                <tbody>
                  {d.silences.map((s) => (
                    <tr key={s.id}>
                      <td>
                        <code>{s.matchers.join(", ")}</code> {s.state === "pending" && <span className="badge">pending</span>}
                      </td>
                      <td>{new Date(s.endsAt).toLocaleString()}</td>
                      <td>{s.comment}</td>
                      <td>{s.createdBy}</td>
                      {canWrite && (
                        <td>
                          <button type="button" onClick={() => expire.mutate({ silenceId: s.id })} disabled={expire.isPending}>
                            End now
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
            Silence for maintenance
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
  const save = useMutation(trpc.alert.createSilence.mutationOptions(saveOptions({ refresh: trpc.alert.silences.queryKey(), toast: () => "Silenced; the audit log has it.", then: onDone })));
  const errors = fieldErrorsOf(save.error);
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  return (
    <FormPanel
      title="Silence for maintenance"
      error={save.error}
      onSubmit={() => save.mutate({ endpointSlug: f.endpointSlug || null, alertName: f.alertName || null, minutes: Number(f.minutes), comment: f.comment })}
    >
      <div className="grid-2">
        <Field id="si-endpoint" label="Endpoint" errors={errors.endpointSlug}>
          <select id="si-endpoint" value={f.endpointSlug} onChange={set("endpointSlug")}>
            <option value="">any endpoint</option>
            {(endpoints.data ?? []).map((e) => (
              <option key={e.id} value={e.slug}>
                {e.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="si-alert" label="Alert (optional)" hint="e.g. KuleSloBurnFast" errors={errors.alertName}>
          <input id="si-alert" value={f.alertName} onChange={set("alertName")} />
        </Field>
        <Field id="si-minutes" label="For (minutes)" errors={errors.minutes}>
          <input id="si-minutes" inputMode="numeric" value={f.minutes} onChange={set("minutes")} />
        </Field>
        <Field id="si-comment" label="Why" hint="e.g. driver upgrade on llm-1" errors={errors.comment}>
          <input id="si-comment" value={f.comment} onChange={set("comment")} />
        </Field>
      </div>
      <FormActions submit="Silence" pending={save.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
