"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useTranslations } from "use-intl";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { useErrorText } from "@/components/trpc/use-error-text";
import { Empty, Field } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { FormActions, PanelHead } from "@/components/ui/page-head";
import { useToast } from "@/components/ui/toast";
import { useFormat } from "@/components/i18n/use-format";
import { KeyLimits, KeyLimitsForm, limitOf } from "./key-limits";

/**
 * API keys of one tenant (tenantId set, or a tenant user's own), or of every tenant for staff.
 * A new key's secret is shown once, here, and never again: only its hash is stored.
 */
export function ApiKeysPanel({ tenantId, canWrite, chooseTenant }: { tenantId: string | null; canWrite: boolean; chooseTenant: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("apiKeys.panel");
  const fmt = useFormat();
  const keys = useQuery(trpc.apiKey.list.queryOptions({ tenantId }, PANEL_QUERY));
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [creating, setCreating] = useState(false);
  const [limitsOf, setLimitsOf] = useState<string | null>(null);
  const revoke = useMutation(
    trpc.apiKey.revoke.mutationOptions({
      onSuccess: async (k) => {
        await qc.invalidateQueries({ queryKey: trpc.apiKey.list.pathKey() });
        toast.success(t("revokedToast", { prefix: k.prefix }));
      },
    }),
  );
  return (
    <div className="panel">
      <PanelHead title={t("title")}>
        {canWrite && !creating && (
          <button className="primary" onClick={() => (setCreating(true), setSecret(null))}>
            {t("new")}
          </button>
        )}
      </PanelHead>
      {secret && (
        <div className="secret" role="region" aria-label={t("secretAria")}>
          <b>{t("copyNow", { name: secret.name })}</b>
          <code data-testid="new-key-secret">{secret.value}</code>
          <div className="actions">
            <button onClick={() => void navigator.clipboard?.writeText(secret.value).then(() => toast.success(t("copied")))}>{t("copy")}</button>
            <button onClick={() => setSecret(null)}>{t("stored")}</button>
          </div>
        </div>
      )}
      {creating && <CreateKeyForm tenantId={tenantId} chooseTenant={chooseTenant} onCreated={(name, value) => (setSecret({ name, value }), setCreating(false))} onCancel={() => setCreating(false)} />}
      <QueryState query={keys} what={t("loading")} empty={<Empty title={t("emptyTitle")}>{canWrite ? t("emptyWrite") : t("emptyRead")}</Empty>}>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th>{t("name")}</th>
                {chooseTenant && <th>{t("tenant")}</th>}
                <th>{t("key")}</th>
                <th>{t("endpoints")}</th>
                <th>{t("limits")}</th>
                <th>{t("expires")}</th>
                <th>{t("lastUsed")}</th>
                <th>{t("status")}</th>
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
                  <td>{k.allowedEndpointIds.length ? t("allowed", { count: k.allowedEndpointIds.length }) : t("all")}</td>
                  <td>
                    <KeyLimits k={k} />
                  </td>
                  <td>{k.expiresAt ? fmt.dateTime(k.expiresAt) : t("never")}</td>
                  <td>{k.lastUsedAt ? fmt.dateTime(k.lastUsedAt) : <span className="muted">{t("never")}</span>}</td>
                  <td>
                    {k.revokedAt ? (
                      <span className="badge badge-danger">{t("revoked")}</span>
                    ) : k.expiresAt && new Date(k.expiresAt) < new Date() ? (
                      <span className="badge badge-warn">{t("expired")}</span>
                    ) : (
                      <span className="badge badge-ok">{t("active")}</span>
                    )}
                  </td>
                  {canWrite && (
                    <td>
                      {!k.revokedAt && <button onClick={() => setLimitsOf(limitsOf === k.id ? null : k.id)}>{t("limitsButton")}</button>}{" "}
                      {!k.revokedAt && (
                        <button
                          className="danger"
                          disabled={revoke.isPending}
                          onClick={() => {
                            if (confirm(t("confirmRevoke", { name: k.name, prefix: k.prefix }))) revoke.mutate({ id: k.id });
                          }}
                        >
                          {t("revoke")}
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
  const t = useTranslations("apiKeys.create");
  const { formErrorOf } = useErrorText();
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
        <Field id="k-name" label={t("name")} hint={t("nameHint")} errors={errors.name}>
          <input id="k-name" value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} aria-invalid={!!errors.name} />
        </Field>
        {chooseTenant && (
          <Field id="k-tenant" label={t("tenant")} errors={errors.tenantId}>
            <select id="k-tenant" value={f.tenantId} onChange={(e) => setF({ ...f, tenantId: e.target.value })} aria-invalid={!!errors.tenantId}>
              <option value="">{t("chooseTenant")}</option>
              {tenants.data?.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field id="k-expires" label={t("expires")} errors={errors.expiresAt}>
          <input id="k-expires" type="date" value={f.expiresAt} onChange={(e) => setF({ ...f, expiresAt: e.target.value })} aria-invalid={!!errors.expiresAt} />
        </Field>
      </div>
      <div className="form-row">
        <Field id="k-rpm" label={t("rpm")} hint={t("withinHint")} errors={errors.rpmLimit}>
          <input id="k-rpm" inputMode="numeric" value={f.rpm} onChange={(e) => setF({ ...f, rpm: e.target.value })} aria-invalid={!!errors.rpmLimit} />
        </Field>
        <Field id="k-tpm" label={t("tpm")} hint={t("withinHint")} errors={errors.tpmLimit}>
          <input id="k-tpm" inputMode="numeric" value={f.tpm} onChange={(e) => setF({ ...f, tpm: e.target.value })} aria-invalid={!!errors.tpmLimit} />
        </Field>
      </div>
      <fieldset className="field" style={{ border: 0, padding: 0 }}>
        <legend style={{ fontWeight: 600, fontSize: 13 }}>{t("endpoints")}</legend>
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
      <FormActions submit={t("submit")} pending={create.isPending} onCancel={onCancel} />
    </form>
  );
}
