"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { Field } from "@/components/ui/field";
import { formatDateTime } from "@/components/ui/format";

interface Hold {
  id: string;
  tenantId: string | null;
  subject: string | null;
  reason: string;
  createdByEmail: string;
  createdAt: Date | string;
}

/** Legal holds: data the periodic destruction must keep while a case or an authority needs it. */
export function LegalHolds({ canWrite, holds }: { canWrite: boolean; holds: Hold[] }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [f, setF] = useState({ tenantId: "", user: "", reason: "" });
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.kvkk.policy.get.queryKey() });
  const place = useMutation(trpc.kvkk.holds.place.mutationOptions({ onSuccess: () => (toast.success("Hold placed: the next runs keep this data"), setF({ tenantId: "", user: "", reason: "" }), refresh()) }));
  const release = useMutation(trpc.kvkk.holds.release.mutationOptions({ onSuccess: () => (toast.success("Hold released"), refresh()), onError: (e) => toast.error(e.message) }));
  const errs = (place.error?.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors;
  return (
    <section className="panel" aria-label="Legal holds">
      <h2>Legal holds</h2>
      {!holds.length ? (
        <p className="muted">No holds: the periodic destruction destroys everything past its period.</p>
      ) : (
        <table aria-label="Holds">
          <thead>
            <tr>
              <th>Keeps</th>
              <th>Reason</th>
              <th>Placed</th>
              {canWrite && <th className="no-print" />}
            </tr>
          </thead>
          <tbody>
            {holds.map((h) => (
              <tr key={h.id}>
                <td>{h.subject ? `data subject ${h.subject}` : h.tenantId ? `tenant ${h.tenantId}'s call log` : "the whole call log"}</td>
                <td>{h.reason}</td>
                <td>
                  {formatDateTime(h.createdAt)} by {h.createdByEmail}
                </td>
                {canWrite && (
                  <td className="no-print">
                    <button onClick={() => release.mutate({ id: h.id })}>Release</button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canWrite && (
        <form
          className="actions no-print"
          style={{ alignItems: "flex-end", flexWrap: "wrap" }}
          onSubmit={(e) => {
            e.preventDefault();
            place.mutate({ tenantId: f.tenantId || null, user: f.user || null, reason: f.reason });
          }}
        >
          <Field id="hold-tenant" label="Tenant id (empty: every tenant)" errors={errs?.tenantId}>
            <input id="hold-tenant" value={f.tenantId} onChange={(e) => setF({ ...f, tenantId: e.target.value })} />
          </Field>
          <Field id="hold-user" label="Data subject's user identifier (optional)" errors={errs?.user}>
            <input id="hold-user" value={f.user} onChange={(e) => setF({ ...f, user: e.target.value })} />
          </Field>
          <Field id="hold-reason" label="Reason" errors={errs?.reason}>
            <input id="hold-reason" value={f.reason} onChange={(e) => setF({ ...f, reason: e.target.value })} />
          </Field>
          <button type="submit" className="primary" disabled={place.isPending}>
            Place hold
          </button>
        </form>
      )}
    </section>
  );
}
