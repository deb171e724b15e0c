"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { Field } from "@/components/ui/field";

/** A data subject's request: find by the `user` identifier (hashed, never stored), export, erase. */
export function SubjectRequest({ canDestroy }: { canDestroy: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [user, setUser] = useState("");
  const [reference, setReference] = useState("");
  const [tenantId, setTenantId] = useState("");
  const tenants = useQuery(trpc.kvkk.settings.queryOptions());
  const find = useMutation(trpc.kvkk.subject.find.mutationOptions());
  const exp = useMutation(trpc.kvkk.subject.export.mutationOptions({ onSuccess: () => toast.success("Export started: see the call log's exports") }));
  const destroy = useMutation(
    trpc.kvkk.subject.destroy.mutationOptions({
      onSuccess: (r) => {
        toast.success(`${r.rowCount} rows destroyed; record ${r.id}`);
        void qc.invalidateQueries({ queryKey: trpc.kvkk.destructions.queryKey() });
      },
    }),
  );
  const errs = (find.error?.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors;
  const r = find.data;
  return (
    <section className="panel" aria-label="Data subject request">
      <h2>Data subject&apos;s request</h2>
      <form
        className="actions"
        style={{ alignItems: "flex-end" }}
        onSubmit={(e) => {
          e.preventDefault();
          find.mutate({ user, tenantId: tenantId || null, reference: reference || null });
        }}
      >
        <Field id="dsr-user" label="The user identifier the tenant sent" errors={errs?.user}>
          <input id="dsr-user" value={user} onChange={(e) => setUser(e.target.value)} />
        </Field>
        <Field id="dsr-tenant" label="Tenant (the controller asked)" errors={errs?.tenantId}>
          <select id="dsr-tenant" value={tenantId} onChange={(e) => setTenantId(e.target.value)}>
            <option value="">Choose…</option>
            {tenants.data?.tenants.map((t) => (
              <option key={t.id} value={t.id}>
                {t.slug}
              </option>
            ))}
          </select>
        </Field>
        <Field id="dsr-ref" label="Reference" errors={errs?.reference}>
          <input id="dsr-ref" value={reference} onChange={(e) => setReference(e.target.value)} />
        </Field>
        <button type="submit" className="primary" disabled={find.isPending}>
          Find
        </button>
      </form>
      {r && (
        <div role="status">
          <p>
            {r.rowsFound} call(s) found{r.byTenantMonth.length ? ":" : "."}{" "}
            {r.byTenantMonth.map((c) => `${c.tenantSlug} ${new Date(c.month).toISOString().slice(0, 7)} (${c.rows})`).join(", ")}
          </p>
          {r.rowsFound > 0 && (
            <div className="actions">
              <button onClick={() => exp.mutate({ requestId: r.requestId, format: "csv" })}>Export these calls</button>
              {canDestroy && (
                <button className="danger" onClick={() => confirm(`Destroy ${r.rowsFound} call(s)? This is recorded and cannot be undone.`) && destroy.mutate({ requestId: r.requestId, method: "delete" })}>
                  Destroy these calls
                </button>
              )}
            </div>
          )}
        </div>
      )}
    </section>
  );
}
