"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { PageHead } from "@/components/ui/page-head";
import { Empty, Field, Loading } from "@/components/ui/field";
import { formatDateTime } from "@/components/ui/format";
import { CHANNELS, RIGHTS } from "./rights";

const today = () => new Date().toISOString().slice(0, 10);
const blank = () => ({ user: "", tenantId: "", channel: "kep", receivedAt: today(), identityCheck: "", right: "erasure", reference: "" });

/** Data subjects' applications to a tenant (the data controller): intake, the 30-day clock, answer, refusal or erasure. */
export function ApplicationsPage({ canWrite, staff }: { canWrite: boolean; staff: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const list = useQuery(trpc.kvkk.applications.list.queryOptions());
  const [f, setF] = useState(blank);
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.kvkk.applications.list.queryKey() });
  const done = (what: string) => ({ onSuccess: () => (toast.success(what), refresh()), onError: (e: { message: string }) => toast.error(e.message) });
  const open = useMutation(trpc.kvkk.applications.open.mutationOptions({ onSuccess: (a) => (toast.success(`Application recorded: ${a.rowsFound} call(s) found, answer due ${formatDateTime(a.dueAt)}`), setF(blank()), refresh()) }));
  const answer = useMutation(trpc.kvkk.applications.answer.mutationOptions(done("Answer recorded")));
  const refuse = useMutation(trpc.kvkk.applications.refuse.mutationOptions(done("Refusal recorded")));
  const erase = useMutation(trpc.kvkk.applications.erase.mutationOptions(done("Erased, and the application answered")));
  const errs = (open.error?.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors;
  const set = (k: keyof ReturnType<typeof blank>) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const overdue = list.data?.filter((a) => a.overdue) ?? [];
  return (
    <>
      <PageHead title="Data subjects' applications">
        Applications under KVKK Art. 11 are answered within 30 days of receipt, free of charge, or refused with the reason (Art. 13). {staff ? "Kule, as the processor, handles them for the tenant each is addressed to." : "You are the data controller: record each application your end users send you."}
      </PageHead>
      {overdue.length > 0 && (
        <p className="error" role="alert" aria-label="Overdue applications">
          {overdue.length} application(s) past the 30-day deadline: {overdue.map((a) => a.reference ?? a.id).join(", ")}.
        </p>
      )}
      <section className="panel" aria-label="Applications">
        {list.isPending ? (
          <Loading what="applications" />
        ) : !list.data?.length ? (
          <Empty title="No applications">{canWrite ? " Record one below when an end user applies (by KEP, in writing, by e-signature…)." : ""}</Empty>
        ) : (
          <table aria-label="Application list">
            <thead>
              <tr>
                <th>Received</th>
                <th>Right (Art. 11)</th>
                <th>Channel · identity check</th>
                <th>Calls found</th>
                <th>Due</th>
                <th>Status</th>
                {canWrite && <th />}
              </tr>
            </thead>
            <tbody>
              {list.data.map((a) => (
                <tr key={a.id}>
                  <td>
                    {formatDateTime(a.receivedAt)} {a.reference && <div className="muted">{a.reference}</div>}
                  </td>
                  <td>{a.right ? RIGHTS[a.right] : "—"}</td>
                  <td>
                    {a.channel ? CHANNELS[a.channel] : "—"} · {a.identityCheck}
                  </td>
                  <td>{a.rowsFound}</td>
                  <td className={a.overdue ? "error" : undefined}>{a.open ? `${formatDateTime(a.dueAt)} (${a.daysLeft! < 0 ? `${-a.daysLeft!} days late` : `${a.daysLeft} days left`})` : "—"}</td>
                  <td>
                    {a.status}
                    {a.answer && <div className="muted">{a.answer}</div>}
                    {a.refusalReason && <div className="muted">Refused: {a.refusalReason}</div>}
                  </td>
                  {canWrite && (
                    <td className="actions">
                      {a.open && (
                        <>
                          {a.right === "erasure" && (
                            <button className="danger" onClick={() => confirm(`Erase ${a.rowsFound} call(s) of this person from the call log? Recorded, cannot be undone.`) && erase.mutate({ id: a.id, expectedUpdatedAt: a.updatedAt, method: "delete" })}>
                              Erase and answer
                            </button>
                          )}
                          <button onClick={() => { const t = prompt("The answer sent to the applicant"); if (t) answer.mutate({ id: a.id, expectedUpdatedAt: a.updatedAt, answer: t }); }}>Answer</button>
                          <button onClick={() => { const t = prompt("The reason for refusing (the applicant is told)"); if (t) refuse.mutate({ id: a.id, expectedUpdatedAt: a.updatedAt, reason: t }); }}>Refuse</button>
                        </>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {canWrite && (
        <section className="panel" aria-label="New application">
          <h2>Record an application</h2>
          <form
            className="actions"
            style={{ alignItems: "flex-end", flexWrap: "wrap" }}
            onSubmit={(e) => {
              e.preventDefault();
              open.mutate({ ...f, tenantId: f.tenantId || null, reference: f.reference || null, channel: f.channel as keyof typeof CHANNELS, right: f.right as keyof typeof RIGHTS });
            }}
          >
            <Field id="app-user" label="The user identifier you send for this person" hint="Hashed, never stored" errors={errs?.user}>
              <input id="app-user" value={f.user} onChange={set("user")} />
            </Field>
            {staff && (
              <Field id="app-tenant" label="Tenant id (the controller)" errors={errs?.tenantId}>
                <input id="app-tenant" value={f.tenantId} onChange={set("tenantId")} />
              </Field>
            )}
            <Field id="app-right" label="Right (Art. 11)" errors={errs?.right}>
              <select id="app-right" value={f.right} onChange={set("right")}>
                {Object.entries(RIGHTS).map(([k, v]) => (
                  <option key={k} value={k}>
                    {v}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="app-channel" label="Received by" errors={errs?.channel}>
              <select id="app-channel" value={f.channel} onChange={set("channel")}>
                {Object.entries(CHANNELS).map(([k, v]) => (
                  <option key={k} value={k}>
                    {v}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="app-received" label="Received on" errors={errs?.receivedAt}>
              <input id="app-received" type="date" value={f.receivedAt} onChange={set("receivedAt")} />
            </Field>
            <Field id="app-identity" label="Identity checked how" errors={errs?.identityCheck}>
              <input id="app-identity" value={f.identityCheck} onChange={set("identityCheck")} />
            </Field>
            <Field id="app-ref" label="Reference (optional)" errors={errs?.reference}>
              <input id="app-ref" value={f.reference} onChange={set("reference")} />
            </Field>
            <button type="submit" className="primary" disabled={open.isPending}>
              Record application
            </button>
            {open.error && !errs && <p className="error">{open.error.message}</p>}
          </form>
        </section>
      )}
    </>
  );
}
