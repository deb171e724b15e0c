"use client";

import Link from "next/link";
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Empty, Field } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { PageHead, FormActions } from "@/components/ui/page-head";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";

export function TenantsPage({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const tenants = useQuery(trpc.tenant.list.queryOptions(undefined, PANEL_QUERY));
  const [creating, setCreating] = useState(false);
  const update = useMutation(trpc.tenant.update.mutationOptions({ onSuccess: () => qc.invalidateQueries({ queryKey: trpc.tenant.list.queryKey() }) }));
  return (
    <>
      <PageHead
        title="Tenants"
        action={
          canWrite &&
          !creating && (
            <button className="primary" onClick={() => setCreating(true)}>
              New tenant
            </button>
          )
        }
      >
        Companies that call the models with their API keys. Every tenant is served in Turkey; abroad only under a transfer safeguard recorded on the KVKK page (KVKK Art. 9). &quot;Turkey only&quot; marks a tenant whose contract forbids any transfer.
      </PageHead>
      {creating && <CreateTenantForm onDone={() => setCreating(false)} />}
      <div className="panel">
        <QueryState query={tenants} what="tenants" empty={<Empty title="No tenants yet">{canWrite ? "Create one with “New tenant”, then give it an API key." : "An admin creates tenants."}</Empty>}>
          {(data) => (
            <table>
              <thead>
                <tr>
                  <th>Tenant</th>
                  <th>Slug</th>
                  <th>Data residency</th>
                  <th>Status</th>
                  <th>Price plan</th>
                  <th>Limits per minute</th>
                  <th>Active keys</th>
                  <th>Users</th>
                </tr>
              </thead>
              <tbody>
                {data.map((t) => (
                  <tr key={t.id}>
                    <td>
                      <Link href={`/tenants/${t.id}`}>{t.name}</Link>
                    </td>
                    <td>
                      <code>{t.slug}</code>
                    </td>
                    <td>
                      {canWrite ? (
                        <label>
                          <input type="checkbox" checked={t.kvkk} disabled={update.isPending} onChange={(e) => update.mutate({ id: t.id, expectedUpdatedAt: t.updatedAt, kvkk: e.target.checked })} aria-label={`Turkey only for ${t.name}`} />{" "}
                          {t.kvkk ? <span className="badge badge-kvkk">Turkey only (contract)</span> : <span className="muted">Turkey; abroad under a safeguard</span>}
                        </label>
                      ) : t.kvkk ? (
                        <span className="badge badge-kvkk">Turkey only (contract)</span>
                      ) : (
                        <span className="muted">Turkey; abroad under a safeguard</span>
                      )}
                    </td>
                    <td>
                      <span className={`badge ${t.status === "active" ? "badge-ok" : "badge-danger"}`}>{t.status}</span>
                    </td>
                    <td>{t.pricePlan?.name ?? <span className="muted">none</span>}</td>
                    <td>
                      {(t.rpmLimit ?? t.pricePlan?.rpmLimit)?.toLocaleString("en") ?? "∞"} req · {(t.tpmLimit ?? t.pricePlan?.tpmLimit)?.toLocaleString("en") ?? "∞"} tok
                      {t.creditLimit && <div className="muted">credit {t.creditLimit.toString()}</div>}
                    </td>
                    <td>{t._count.apiKeys}</td>
                    <td>{t._count.memberships}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </div>
    </>
  );
}

function CreateTenantForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const saved = useSaveOptions();
  const plans = useQuery(trpc.tenant.pricePlans.queryOptions());
  const [f, setF] = useState({ name: "", slug: "", kvkk: false, pricePlanId: "" });
  const create = useMutation(trpc.tenant.create.mutationOptions(saved({ refresh: trpc.tenant.list.queryKey(), toast: (t) => `Tenant ${t.name} created`, then: onDone })));
  const errors = fieldErrorsOf(create.error);
  return (
    <FormPanel
      title="New tenant"
      error={create.error}
      onSubmit={() => {
        create.mutate({ name: f.name, slug: f.slug, kvkk: f.kvkk, pricePlanId: f.pricePlanId || null });
      }}
    >
      <div className="form-row">
        <Field id="t-name" label="Name" errors={errors.name}>
          <input id="t-name" value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} aria-invalid={!!errors.name} />
        </Field>
        <Field id="t-slug" label="Slug" hint="Like anadolu-bank" errors={errors.slug}>
          <input id="t-slug" value={f.slug} onChange={(e) => setF({ ...f, slug: e.target.value })} aria-invalid={!!errors.slug} />
        </Field>
        <Field id="t-plan" label="Price plan" errors={errors.pricePlanId}>
          <select id="t-plan" value={f.pricePlanId} onChange={(e) => setF({ ...f, pricePlanId: e.target.value })}>
            <option value="">None yet</option>
            {plans.data?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <label>
        <input type="checkbox" checked={f.kvkk} onChange={(e) => setF({ ...f, kvkk: e.target.checked })} /> Turkey only: this tenant&apos;s contract forbids any transfer abroad, even under a safeguard (KVKK Art. 9)
      </label>
      <FormActions submit="Create tenant" pending={create.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
