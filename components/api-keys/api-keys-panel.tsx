"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf, formErrorOf } from "@/components/trpc/errors";
import { Empty, Field } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { FormActions, PanelHead } from "@/components/ui/page-head";
import { useToast } from "@/components/ui/toast";
import { formatDateTime } from "@/components/ui/format";
import { KeyLimits, KeyLimitsForm, limitOf } from "./key-limits";

/**
 * API keys of one tenant (tenantId set, or a tenant user's own), or of every tenant for staff.
 * A new key's secret is shown once, here, and never again: only its hash is stored.
 */
export function ApiKeysPanel({ tenantId, canWrite, chooseTenant }: { tenantId: string | null; canWrite: boolean; chooseTenant: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const keys = useQuery(trpc.apiKey.list.queryOptions({ tenantId }, PANEL_QUERY));
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [creating, setCreating] = useState(false);
  const [limitsOf, setLimitsOf] = useState<string | null>(null);
  const revoke = useMutation(
    trpc.apiKey.revoke.mutationOptions({
      onSuccess: async (k) => {
        await qc.invalidateQueries({ queryKey: trpc.apiKey.list.pathKey() });
        toast.success(`Key ${k.prefix}… revoked`);
      },
    }),
  );
  return (
    <div className="panel">
      <PanelHead title="API keys">
        {canWrite && !creating && (
          <button className="primary" onClick={() => (setCreating(true), setSecret(null))}>
            New API key
          </button>
        )}
      </PanelHead>
      {secret && (
        <div className="secret" role="region" aria-label="New API key secret">
          <b>Copy the secret of “{secret.name}” now: it will not be shown again.</b>
          <code data-testid="new-key-secret">{secret.value}</code>
          <div className="actions">
            <button onClick={() => void navigator.clipboard?.writeText(secret.value).then(() => toast.success("Copied"))}>Copy</button>
            <button onClick={() => setSecret(null)}>I have stored it</button>
          </div>
        </div>
      )}
      {creating && <CreateKeyForm tenantId={tenantId} chooseTenant={chooseTenant} onCreated={(name, value) => (setSecret({ name, value }), setCreating(false))} onCancel={() => setCreating(false)} />}
      <QueryState query={keys} what="keys" empty={<Empty title="No API keys yet">{canWrite ? "Create one with “New API key” to call the gateway." : "A tenant admin creates keys."}</Empty>}>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                {chooseTenant && <th>Tenant</th>}
                <th>Key</th>
                <th>Endpoints</th>
                <th>Limits per minute</th>
                <th>Expires</th>
                <th>Last used</th>
                <th>Status</th>
                {canWrite && <th />}
              </tr>
            </thead>
            <tbody>
              {data.map((k) => [
                <tr key={k.id}>
                  <td>{k.name}</td>
                  {chooseTenant && <td>{k.tenant.name}</td>}
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>{k.allowedEndpointIds.length ? `${k.allowedEndpointIds.length} allowed` : "all"}</td>
                  <td>
                    <KeyLimits k={k} />
                  </td>
                  <td>{k.expiresAt ? formatDateTime(k.expiresAt) : "never"}</td>
                  <td>{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : <span className="muted">never</span>}</td>
                  <td>
                    {k.revokedAt ? (
                      <span className="badge badge-danger">revoked</span>
                    ) : k.expiresAt && new Date(k.expiresAt) < new Date() ? (
                      <span className="badge badge-warn">expired</span>
                    ) : (
                      <span className="badge badge-ok">active</span>
                    )}
                  </td>
                  {canWrite && (
                    <td>
                      {!k.revokedAt && <button onClick={() => setLimitsOf(limitsOf === k.id ? null : k.id)}>Limits…</button>}{" "}
                      {!k.revokedAt && (
                        <button
                          className="danger"
                          disabled={revoke.isPending}
                          onClick={() => {
                            if (confirm(`Revoke ${k.name} (${k.prefix}…)? Calls with it will fail at once.`)) revoke.mutate({ id: k.id });
                          }}
                        >
                          Revoke
                        </button>
                      )}
                    </td>
                  )}
                </tr>,
                limitsOf === k.id && (
                  <tr key={`${k.id}-limits`}>
                    <td colSpan={9}>
                      <KeyLimitsForm k={k} onDone={() => setLimitsOf(null)} />
                    </td>
                  </tr>
                ),
              ])}
            </tbody>
          </table>
        )}
      </QueryState>
    </div>
  );
}

function CreateKeyForm({ tenantId, chooseTenant, onCreated, onCancel }: { tenantId: string | null; chooseTenant: boolean; onCreated: (name: string, secret: string) => void; onCancel: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const catalog = useQuery(trpc.endpoint.catalog.queryOptions());
  const tenants = useQuery(trpc.tenant.list.queryOptions(undefined, { enabled: chooseTenant }));
  const [f, setF] = useState({ name: "", tenantId: tenantId ?? "", expiresAt: "", endpoints: [] as string[], rpm: "", tpm: "" });
  const create = useMutation(
    trpc.apiKey.create.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: async (res) => {
        await qc.invalidateQueries({ queryKey: trpc.apiKey.list.pathKey() });
        onCreated(res.key.name, res.secret);
      },
    }),
  );
  const errors = fieldErrorsOf(create.error);
  return (
    <form
      className="stack panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({
          name: f.name,
          tenantId: f.tenantId || null,
          allowedEndpointIds: f.endpoints,
          expiresAt: f.expiresAt ? new Date(`${f.expiresAt}T23:59:59Z`) : null,
          rpmLimit: limitOf(f.rpm),
          tpmLimit: limitOf(f.tpm),
        });
      }}
    >
      {create.error && <div className="form-error">{formErrorOf(create.error)}</div>}
      <div className="form-row">
        <Field id="k-name" label="Key name" hint="What uses it, like checkout-service" errors={errors.name}>
          <input id="k-name" value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} aria-invalid={!!errors.name} />
        </Field>
        {chooseTenant && (
          <Field id="k-tenant" label="Tenant" errors={errors.tenantId}>
            <select id="k-tenant" value={f.tenantId} onChange={(e) => setF({ ...f, tenantId: e.target.value })} aria-invalid={!!errors.tenantId}>
              <option value="">Choose a tenant…</option>
              {tenants.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field id="k-expires" label="Expires on (optional)" errors={errors.expiresAt}>
          <input id="k-expires" type="date" value={f.expiresAt} onChange={(e) => setF({ ...f, expiresAt: e.target.value })} aria-invalid={!!errors.expiresAt} />
        </Field>
      </div>
      <div className="form-row">
        <Field id="k-rpm" label="Requests per minute (optional)" hint="Within the tenant's limit" errors={errors.rpmLimit}>
          <input id="k-rpm" inputMode="numeric" value={f.rpm} onChange={(e) => setF({ ...f, rpm: e.target.value })} aria-invalid={!!errors.rpmLimit} />
        </Field>
        <Field id="k-tpm" label="Tokens per minute (optional)" hint="Within the tenant's limit" errors={errors.tpmLimit}>
          <input id="k-tpm" inputMode="numeric" value={f.tpm} onChange={(e) => setF({ ...f, tpm: e.target.value })} aria-invalid={!!errors.tpmLimit} />
        </Field>
      </div>
      <fieldset className="field" style={{ border: 0, padding: 0 }}>
        <legend style={{ fontWeight: 600, fontSize: 13 }}>Endpoints this key may call (none ticked = all)</legend>
        {catalog.data?.map((ep) => (
          <label key={ep.id}>
            <input
              type="checkbox"
              checked={f.endpoints.includes(ep.id)}
              onChange={(e) => setF({ ...f, endpoints: e.target.checked ? [...f.endpoints, ep.id] : f.endpoints.filter((x) => x !== ep.id) })}
            />{" "}
            {ep.name} <code>{ep.slug}</code>
          </label>
        ))}
        {errors.allowedEndpointIds && <span className="error">{errors.allowedEndpointIds.join(" ")}</span>}
      </fieldset>
      <FormActions submit="Create key" pending={create.isPending} onCancel={onCancel} />
    </form>
  );
}
