"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Empty, Field } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { PanelHead } from "@/components/ui/page-head";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";
import { useToast } from "@/components/ui/toast";

const ROLES = ["admin", "operator", "tenant", "auditor"] as const;
type RoleName = (typeof ROLES)[number];

/** Single sign-on: the provider Kule is configured with, whether local passwords still work, and the rules that give roles. */
export function SsoSettings() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const settings = useQuery(trpc.sso.settings.queryOptions(undefined, PANEL_QUERY));
  const rules = useQuery(trpc.sso.rules.queryOptions(undefined, PANEL_QUERY));
  const tenants = useQuery(trpc.tenant.list.queryOptions());
  const [adding, setAdding] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.sso.rules.queryKey() });
  const move = useMutation(trpc.sso.moveRule.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.sso.deleteRule.mutationOptions({ onSuccess: refresh }));
  const setSettings = useMutation(
    trpc.sso.setSettings.mutationOptions({
      onSuccess: (s) => {
        void qc.invalidateQueries({ queryKey: trpc.sso.settings.queryKey() });
        toast.success(s.localPasswords ? "Local passwords work again" : "Local passwords are off: people sign in with single sign-on (admins keep a break-glass password)");
      },
    }),
  );
  return (
    <>
      <div className="panel" data-testid="sso-settings">
        <PanelHead title="Single sign-on" />
        <QueryState query={settings} what="sign-in settings">
          {(s) => (
            <div className="stack">
              <p>
                {s.sso ? (
                  <>
                    Signing in with <strong>{s.sso.name}</strong> (OpenID Connect, issuer <code>{s.sso.issuer}</code>). A person&apos;s first sign-in creates their account, with the role of the first rule below that matches them; later sign-ins follow the rules again.
                  </>
                ) : (
                  <>Single sign-on is not configured. Set KULE_OIDC_ISSUER, KULE_OIDC_CLIENT_ID and KULE_OIDC_CLIENT_SECRET (the callback to register at the provider is /api/auth/callback/oidc) and restart.</>
                )}
              </p>
              <label>
                <input
                  type="checkbox"
                  checked={s.localPasswords}
                  disabled={setSettings.isPending}
                  onChange={(e) => setSettings.mutate({ localPasswords: e.target.checked, expectedVersion: s.version })}
                />{" "}
                Local passwords work (off: only single sign-on, except admins&apos; break-glass sign-in)
              </label>
            </div>
          )}
        </QueryState>
      </div>
      <div className="panel">
        <PanelHead title="Sign-in rules">
          {!adding && (
            <button className="primary" onClick={() => setAdding(true)}>
              New rule
            </button>
          )}
        </PanelHead>
        {adding && <RuleForm tenants={tenants.data ?? []} onDone={() => setAdding(false)} />}
        <QueryState query={rules} what="sign-in rules" empty={<Empty title="No sign-in rules">Nobody can sign in with single sign-on until a rule gives them a role: add one, such as groups = kule-operators → operator.</Empty>}>
          {(data) => (
            <table>
              <caption className="muted">Tried in order; the first whose claim holds the value gives the role.</caption>
              <thead>
                <tr>
                  <th>#</th>
                  <th>When the claim</th>
                  <th>holds</th>
                  <th>Role</th>
                  <th>Tenant</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.map((r, i) => (
                  <tr key={r.id}>
                    <td>{i + 1}</td>
                    <td>
                      <code>{r.claim}</code>
                    </td>
                    <td>
                      <code>{r.value}</code>
                    </td>
                    <td>{r.role}</td>
                    <td>{r.tenant?.name ?? <span className="muted">—</span>}</td>
                    <td className="actions">
                      <button disabled={i === 0 || move.isPending} aria-label={`Move rule ${r.claim} = ${r.value} up`} onClick={() => move.mutate({ id: r.id, expectedVersion: r.version, direction: "up" })}>
                        ↑
                      </button>
                      <button disabled={i === data.length - 1 || move.isPending} aria-label={`Move rule ${r.claim} = ${r.value} down`} onClick={() => move.mutate({ id: r.id, expectedVersion: r.version, direction: "down" })}>
                        ↓
                      </button>
                      <button disabled={remove.isPending} onClick={() => confirm(`Delete the rule ${r.claim} = ${r.value}?`) && remove.mutate({ id: r.id, expectedVersion: r.version })}>
                        Delete
                      </button>
                    </td>
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

function RuleForm({ tenants, onDone }: { tenants: { id: string; name: string }[]; onDone: () => void }) {
  const trpc = useTRPC();
  const saved = useSaveOptions();
  const [f, setF] = useState({ claim: "groups", value: "", role: "operator" as RoleName, tenantId: "" });
  const create = useMutation(trpc.sso.createRule.mutationOptions(saved({ refresh: trpc.sso.rules.queryKey(), toast: (r) => `Rule added: ${r.claim} = ${r.value} → ${r.role}`, then: onDone })));
  const errors = fieldErrorsOf(create.error);
  return (
    <FormPanel title="New sign-in rule" error={create.error} onSubmit={() => create.mutate({ ...f, tenantId: f.role === "tenant" ? f.tenantId || null : null })}>
      <div className="form-row">
        <Field id="sso-claim" label="Claim" hint="The ID token claim to read: groups, roles, hd, email…" errors={errors.claim}>
          <input id="sso-claim" value={f.claim} onChange={(e) => setF({ ...f, claim: e.target.value })} aria-invalid={!!errors.claim} />
        </Field>
        <Field id="sso-value" label="Value" hint="Exactly as the provider sends it" errors={errors.value}>
          <input id="sso-value" value={f.value} onChange={(e) => setF({ ...f, value: e.target.value })} aria-invalid={!!errors.value} />
        </Field>
        <Field id="sso-role" label="Role" errors={errors.role}>
          <select id="sso-role" value={f.role} onChange={(e) => setF({ ...f, role: e.target.value as RoleName })}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </Field>
        {f.role === "tenant" && (
          <Field id="sso-tenant" label="Tenant" errors={errors.tenantId}>
            <select id="sso-tenant" value={f.tenantId} onChange={(e) => setF({ ...f, tenantId: e.target.value })} aria-invalid={!!errors.tenantId}>
              <option value="">Choose a tenant…</option>
              {tenants.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </Field>
        )}
      </div>
      <div className="actions">
        <button className="primary" type="submit" disabled={create.isPending}>
          Add rule
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </FormPanel>
  );
}
