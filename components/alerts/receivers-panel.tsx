"use client";

import { useState } from "react";
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
const KIND_TEXT: Record<Kind, string> = { webhook: "Webhook", slack: "Slack-compatible webhook", email: "E-mail (SMTP)" };
const list = (s: string) => s.split(",").map((x) => x.trim()).filter(Boolean);

/** Where Alertmanager sends alerts besides Kule: the list, and (for operators) the form that adds one. */
export function ReceiversPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const toast = useToast();
  const receivers = useQuery(trpc.alert.receivers.queryOptions(undefined, PANEL_QUERY));
  const [adding, setAdding] = useState(false);
  const remove = useMutation(trpc.alert.deleteReceiver.mutationOptions({ onSuccess: () => void receivers.refetch().then(() => toast.success("Receiver removed; Alertmanager reloaded.")) }));
  return (
    <>
      <div className="panel" role="region" aria-label="Receivers">
        <h2>Receivers</h2>
        <p className="muted">Every alert reaches Kule (this page, the endpoint pages, the overview). These receive the alerts their routing matches too.</p>
        <QueryState query={receivers} what="receivers" empty={<p className="muted">No receivers yet: alerts reach Kule only. {canWrite ? "Add a webhook, Slack or e-mail receiver below." : "An operator can add one."}</p>}>
          {(rows) => (
            <table>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Kind</th>
                  <th>Where</th>
                  <th>Endpoints</th>
                  <th>Severities</th>
                  {canWrite && <th />}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => {
                  const s = r.settings as Record<string, string | null>;
                  return (
                    <tr key={r.id}>
                      <td>{r.name}</td>
                      <td>{KIND_TEXT[r.kind]}</td>
                      <td>
                        <code>{r.kind === "email" ? `${s.to} via ${s.smarthost}` : s.url}</code>
                      </td>
                      <td>{r.endpointSlugs.length ? r.endpointSlugs.join(", ") : "all"}</td>
                      <td>{r.severities.length ? r.severities.join(", ") : "all"}</td>
                      {canWrite && (
                        <td>
                          <button type="button" onClick={() => remove.mutate({ id: r.id })} disabled={remove.isPending}>
                            Remove
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
            Add receiver
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
  const [f, setF] = useState({ kind: "webhook" as Kind, name: "", url: "", channel: "", to: "", from: "", smarthost: "", username: "", password: "", endpoints: "", severities: [] as string[] });
  const save = useMutation(
    trpc.alert.createReceiver.mutationOptions(
      saveOptions<{ alertmanager: { state: string; message?: string } }>({
        refresh: trpc.alert.receivers.queryKey(),
        toast: (r) => (r.alertmanager.state === "failed" ? `Receiver saved, but ${r.alertmanager.message}` : r.alertmanager.state === "off" ? "Receiver saved (Alertmanager is off)." : "Receiver saved; Alertmanager reloaded."),
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
    <FormPanel title="Add a receiver" error={save.error} onSubmit={() => save.mutate({ kind: f.kind, name: f.name, settings: settings(), endpointSlugs: list(f.endpoints), severities: f.severities } as never)}>
      <div className="grid-2">
        <Field id="rc-kind" label="Kind">
          <select id="rc-kind" value={f.kind} onChange={(e) => setF({ ...f, kind: e.target.value as Kind })}>
            {(Object.keys(KIND_TEXT) as Kind[]).map((k) => (
              <option key={k} value={k}>
                {KIND_TEXT[k]}
              </option>
            ))}
          </select>
        </Field>
        <Field id="rc-name" label="Name" hint="e.g. oncall-pager" errors={errors.name}>
          <input id="rc-name" value={f.name} onChange={set("name")} />
        </Field>
        {f.kind !== "email" ? (
          <Field id="rc-url" label={f.kind === "slack" ? "Incoming webhook URL" : "Webhook URL"} hint="Alertmanager POSTs its JSON here" errors={errors.settings}>
            <input id="rc-url" value={f.url} onChange={set("url")} />
          </Field>
        ) : (
          <>
            <Field id="rc-to" label="To">
              <input id="rc-to" value={f.to} onChange={set("to")} />
            </Field>
            <Field id="rc-from" label="From">
              <input id="rc-from" value={f.from} onChange={set("from")} />
            </Field>
            {/* amtool's reason for refusing the config (usually the server) shows here. */}
            <Field id="rc-smarthost" label="SMTP server" hint="host:port, e.g. smtp.example.com:587" errors={errors.settings}>
              <input id="rc-smarthost" value={f.smarthost} onChange={set("smarthost")} />
            </Field>
            <Field id="rc-username" label="SMTP user (optional)">
              <input id="rc-username" value={f.username} onChange={set("username")} />
            </Field>
            <Field id="rc-password" label="SMTP password (optional)">
              <input id="rc-password" type="password" value={f.password} onChange={set("password")} />
            </Field>
          </>
        )}
        {f.kind === "slack" && (
          <Field id="rc-channel" label="Channel (optional)" hint="#kule-alerts">
            <input id="rc-channel" value={f.channel} onChange={set("channel")} />
          </Field>
        )}
        <Field id="rc-endpoints" label="Endpoints" hint="comma-separated API names; empty: every alert" errors={errors.endpointSlugs}>
          <input id="rc-endpoints" value={f.endpoints} onChange={set("endpoints")} />
        </Field>
        <fieldset>
          <legend>Severities (none ticked: all)</legend>
          {SEVERITIES.map((s) => (
            <label key={s} style={{ marginRight: 12 }}>
              <input type="checkbox" checked={f.severities.includes(s)} onChange={(e) => setF({ ...f, severities: e.target.checked ? [...f.severities, s] : f.severities.filter((x) => x !== s) })} /> {s}
            </label>
          ))}
        </fieldset>
      </div>
      <FormActions submit="Save receiver" pending={save.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
