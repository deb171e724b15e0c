"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
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
  const t = useTranslations("users");
  const roleName = useTranslations("shell.roles");
  const common = useTranslations("common");
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
        toast.success(s.localPasswords ? t("sso.passwordsOn") : t("sso.passwordsOff"));
      },
    }),
  );
  return (
    <>
      <div className="panel" data-testid="sso-settings">
        <PanelHead title={t("sso.title")} />
        <QueryState query={settings} what={t("sso.loading")}>
          {(s) => (
            <div className="stack">
              <p>
                {s.sso
                  ? t.rich("sso.configured", { name: s.sso.name, issuer: s.sso.issuer, strong: (c) => <strong>{c}</strong>, code: (c) => <code>{c}</code> })
                  : t("sso.notConfigured")}
              </p>
              <label>
                <input
                  type="checkbox"
                  checked={s.localPasswords}
                  disabled={setSettings.isPending}
                  onChange={(e) => setSettings.mutate({ localPasswords: e.target.checked, expectedVersion: s.version })}
                />{" "}
                {t("sso.localPasswords")}
              </label>
            </div>
          )}
        </QueryState>
      </div>
      <div className="panel">
        <PanelHead title={t("sso.rules.title")}>
          {!adding && (
            <button className="primary" onClick={() => setAdding(true)}>
              {t("sso.rules.new")}
            </button>
          )}
        </PanelHead>
        {adding && <RuleForm tenants={tenants.data ?? []} onDone={() => setAdding(false)} />}
        <QueryState query={rules} what={t("sso.rules.loading")} empty={<Empty title={t("sso.rules.emptyTitle")}>{t("sso.rules.emptyHint")}</Empty>}>
          {(data) => (
            <table>
              <caption className="muted">{t("sso.rules.caption")}</caption>
              <thead>
                <tr>
                  <th>#</th>
                  <th>{t("sso.rules.whenClaim")}</th>
                  <th>{t("sso.rules.holds")}</th>
                  <th>{t("role")}</th>
                  <th>{t("tenant")}</th>
                  <th>{t("sso.rules.actions")}</th>
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
                    <td>{roleName(r.role)}</td>
                    <td>{r.tenant?.name ?? <span className="muted">—</span>}</td>
                    <td className="actions">
                      <button disabled={i === 0 || move.isPending} aria-label={t("sso.rules.moveUp", { claim: r.claim, value: r.value })} onClick={() => move.mutate({ id: r.id, expectedVersion: r.version, direction: "up" })}>
                        ↑
                      </button>
                      <button disabled={i === data.length - 1 || move.isPending} aria-label={t("sso.rules.moveDown", { claim: r.claim, value: r.value })} onClick={() => move.mutate({ id: r.id, expectedVersion: r.version, direction: "down" })}>
                        ↓
                      </button>
                      <button disabled={remove.isPending} onClick={() => confirm(t("sso.rules.confirmDelete", { claim: r.claim, value: r.value })) && remove.mutate({ id: r.id, expectedVersion: r.version })}>
                        {common("delete")}
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
  const t = useTranslations("users");
  const roleName = useTranslations("shell.roles");
  const common = useTranslations("common");
  const [f, setF] = useState({ claim: "groups", value: "", role: "operator" as RoleName, tenantId: "" });
  const create = useMutation(trpc.sso.createRule.mutationOptions(saved({ refresh: trpc.sso.rules.queryKey(), toast: (r) => t("sso.form.added", { claim: r.claim, value: r.value, role: roleName(r.role) }), then: onDone })));
  const errors = fieldErrorsOf(create.error);
  return (
    <FormPanel title={t("sso.form.title")} error={create.error} onSubmit={() => create.mutate({ ...f, tenantId: f.role === "tenant" ? f.tenantId || null : null })}>
      <div className="form-row">
        <Field id="sso-claim" label={t("sso.form.claim")} hint={t("sso.form.claimHint")} errors={errors.claim}>
          <input id="sso-claim" value={f.claim} onChange={(e) => setF({ ...f, claim: e.target.value })} aria-invalid={!!errors.claim} />
        </Field>
        <Field id="sso-value" label={t("sso.form.value")} hint={t("sso.form.valueHint")} errors={errors.value}>
          <input id="sso-value" value={f.value} onChange={(e) => setF({ ...f, value: e.target.value })} aria-invalid={!!errors.value} />
        </Field>
        <Field id="sso-role" label={t("role")} errors={errors.role}>
          <select id="sso-role" value={f.role} onChange={(e) => setF({ ...f, role: e.target.value as RoleName })}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {roleName(r)}
              </option>
            ))}
          </select>
        </Field>
        {f.role === "tenant" && (
          <Field id="sso-tenant" label={t("tenant")} errors={errors.tenantId}>
            <select id="sso-tenant" value={f.tenantId} onChange={(e) => setF({ ...f, tenantId: e.target.value })} aria-invalid={!!errors.tenantId}>
              <option value="">{t("create.chooseTenant")}</option>
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
          {t("sso.form.submit")}
        </button>
        <button type="button" onClick={onDone}>
          {common("cancel")}
        </button>
      </div>
    </FormPanel>
  );
}
