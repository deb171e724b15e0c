"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { Empty, Field, Loading } from "@/components/ui/field";
import { formatDateTime } from "@/components/ui/format";

/** KVKK Art. 9 as amended by Law 7499: the three bases the Board recognises for a regular transfer. */
export const MECHANISMS = {
  adequacy: "Adequacy decision (Art. 9(1))",
  standard_contract: "Standard contract (Art. 9(4)(c))",
  bcr: "Binding corporate rules (Art. 9(4)(b))",
} as const;

const NOTIFICATION = { not_required: "not required", done: "notified", due: "due", overdue: "OVERDUE" } as const;
const empty = { tenantId: "", destination: "", importer: "", mechanism: "standard_contract", reference: "", signedAt: "", notifiedAt: "" };

/** Safeguards for transfers abroad: without one, the gateway keeps a tenant's calls in Turkey. */
export function SafeguardsPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const list = useQuery(trpc.kvkk.safeguards.list.queryOptions());
  const tenants = useQuery(trpc.kvkk.settings.queryOptions());
  const [f, setF] = useState(empty);
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.kvkk.safeguards.list.queryKey() });
  const create = useMutation(trpc.kvkk.safeguards.create.mutationOptions({ onSuccess: () => (toast.success("Safeguard recorded: the gateway may now serve this tenant there"), setF(empty), refresh()) }));
  const notified = useMutation(trpc.kvkk.safeguards.notified.mutationOptions({ onSuccess: () => (toast.success("Notification recorded"), refresh()), onError: (e) => toast.error(e.message) }));
  const revoke = useMutation(trpc.kvkk.safeguards.revoke.mutationOptions({ onSuccess: () => (toast.success("Revoked: the tenant's calls stay in Turkey again"), refresh()), onError: (e) => toast.error(e.message) }));
  const errs = (create.error?.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors;
  const overdue = list.data?.filter((s) => s.notification === "overdue" && !s.revokedAt) ?? [];
  const set = (k: keyof typeof empty) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  return (
    <section className="panel" aria-label="Transfer safeguards">
      <h2>Transfers abroad: safeguards (KVKK Art. 9)</h2>
      <p className="muted">
        Every tenant&apos;s calls are served in Turkey. A call goes to a region abroad only while a safeguard below covers that tenant and that country. A standard contract must be notified to the Authority within 5 business days of signing (Art. 9(5)); Kule skips weekends but not public holidays, so check those.
      </p>
      {overdue.length > 0 && (
        <p className="error" role="alert" aria-label="Notifications overdue">
          Notification to the Authority overdue for {overdue.map((s) => `${s.tenantSlug} → ${s.destination} (due ${formatDateTime(s.notificationDueAt)})`).join(", ")}.
        </p>
      )}
      {list.isPending ? (
        <Loading what="safeguards" />
      ) : !list.data?.length ? (
        <Empty title="No safeguards: no tenant's calls may leave Turkey">{canWrite ? " Record one below to allow a tenant's calls in a country abroad." : ""}</Empty>
      ) : (
        <table aria-label="Safeguards">
          <thead>
            <tr>
              <th>Tenant</th>
              <th>Country</th>
              <th>Importer</th>
              <th>Mechanism</th>
              <th>Signed</th>
              <th>Notified to the Authority</th>
              <th>In force</th>
              {canWrite && <th />}
            </tr>
          </thead>
          <tbody>
            {list.data.map((s) => (
              <tr key={s.id}>
                <td>{s.tenantSlug}</td>
                <td>{s.destination}</td>
                <td>{s.importer}</td>
                <td>
                  {MECHANISMS[s.mechanism]} · {s.reference}
                </td>
                <td>{formatDateTime(s.signedAt)}</td>
                <td className={s.notification === "overdue" ? "error" : undefined}>
                  {NOTIFICATION[s.notification]} {s.notifiedAt ? formatDateTime(s.notifiedAt) : s.notificationDueAt ? `by ${formatDateTime(s.notificationDueAt)}` : ""}
                </td>
                <td>{s.revokedAt ? `revoked ${formatDateTime(s.revokedAt)}` : s.inForce ? "yes" : "not yet"}</td>
                {canWrite && (
                  <td className="actions">
                    {!s.revokedAt && s.notification !== "done" && s.notification !== "not_required" && (
                      <button onClick={() => notified.mutate({ id: s.id, notifiedAt: new Date(), expectedUpdatedAt: s.updatedAt })}>Notified today</button>
                    )}
                    {!s.revokedAt && (
                      <button className="danger" onClick={() => confirm(`Revoke? ${s.tenantSlug}'s calls will no longer be served in ${s.destination}.`) && revoke.mutate({ id: s.id, expectedUpdatedAt: s.updatedAt })}>
                        Revoke
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canWrite && (
        <form
          aria-label="New safeguard"
          className="actions"
          style={{ alignItems: "flex-end", flexWrap: "wrap" }}
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({ ...f, mechanism: f.mechanism as keyof typeof MECHANISMS, notifiedAt: f.notifiedAt || null });
          }}
        >
          <Field id="sg-tenant" label="Tenant" errors={errs?.tenantId}>
            <select id="sg-tenant" value={f.tenantId} onChange={set("tenantId")}>
              <option value="">Choose…</option>
              {tenants.data?.tenants.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.slug}
                </option>
              ))}
            </select>
          </Field>
          <Field id="sg-dest" label="Country (region prefix)" hint="de for de-fra" errors={errs?.destination}>
            <input id="sg-dest" value={f.destination} onChange={set("destination")} size={4} />
          </Field>
          <Field id="sg-importer" label="Importer (name, address)" errors={errs?.importer}>
            <input id="sg-importer" value={f.importer} onChange={set("importer")} />
          </Field>
          <Field id="sg-mech" label="Mechanism" errors={errs?.mechanism}>
            <select id="sg-mech" value={f.mechanism} onChange={set("mechanism")}>
              {Object.entries(MECHANISMS).map(([k, v]) => (
                <option key={k} value={k}>
                  {v}
                </option>
              ))}
            </select>
          </Field>
          <Field id="sg-ref" label="Reference" errors={errs?.reference}>
            <input id="sg-ref" value={f.reference} onChange={set("reference")} />
          </Field>
          <Field id="sg-signed" label="Signed / approved on" errors={errs?.signedAt}>
            <input id="sg-signed" type="date" value={f.signedAt} onChange={set("signedAt")} />
          </Field>
          <Field id="sg-notified" label="Notified on (if done)" errors={errs?.notifiedAt}>
            <input id="sg-notified" type="date" value={f.notifiedAt} onChange={set("notifiedAt")} />
          </Field>
          <button type="submit" className="primary" disabled={create.isPending}>
            Record safeguard
          </button>
          {create.error && !errs && <p className="error">{create.error.message}</p>}
        </form>
      )}
    </section>
  );
}
