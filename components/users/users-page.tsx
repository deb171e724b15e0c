"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Empty, Field } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { FormActions, PageHead } from "@/components/ui/page-head";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";

const ROLES = ["admin", "operator", "tenant", "auditor"] as const;
type RoleName = (typeof ROLES)[number];

export function UsersPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const t = useTranslations("users");
  const roleName = useTranslations("shell.roles");
  const users = useQuery(trpc.user.list.queryOptions(undefined, PANEL_QUERY));
  const tenants = useQuery(trpc.tenant.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const setRole = useMutation(trpc.user.setRole.mutationOptions({ onSuccess: () => qc.invalidateQueries({ queryKey: trpc.user.list.queryKey() }) }));
  return (
    <>
      <PageHead
        title={t("title")}
        action={
          !creating && (
            <button className="primary" onClick={() => setCreating(true)}>
              {t("new")}
            </button>
          )
        }
      >
        {t("intro")}
      </PageHead>
      {creating && <CreateUserForm tenants={tenants.data ?? []} onDone={() => setCreating(false)} />}
      <div className="panel">
        <QueryState query={users} what={t("loading")} empty={<Empty title={t("empty")} />}>
          {(data) => (
            <table>
              <thead>
                <tr>
                  <th>{t("user")}</th>
                  <th>{t("role")}</th>
                  <th>{t("tenant")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((u) => (
                  <tr key={u.id}>
                    <td>
                      {u.name}
                      <div className="muted">{u.email}</div>
                    </td>
                    <td>
                      <select
                        aria-label={t("roleOf", { email: u.email })}
                        value={u.membership?.role ?? ""}
                        disabled={setRole.isPending}
                        onChange={(e) => {
                          const role = e.target.value as RoleName;
                          // A tenant user needs a tenant: switching to it keeps the current one or asks on the form instead.
                          if (role === "tenant" && !u.membership?.tenantId) return alert(t("tenantNeeded"));
                          setRole.mutate({ userId: u.id, role, tenantId: role === "tenant" ? u.membership?.tenantId : null });
                        }}
                        style={{ maxWidth: 160 }}
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {roleName(r)}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>{u.membership?.tenant?.name ?? <span className="muted">—</span>}</td>
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

function CreateUserForm({ tenants, onDone }: { tenants: { id: string; name: string }[]; onDone: () => void }) {
  const trpc = useTRPC();
  const saved = useSaveOptions();
  const t = useTranslations("users");
  const roleName = useTranslations("shell.roles");
  const [f, setF] = useState({ email: "", name: "", password: "", role: "operator" as RoleName, tenantId: "" });
  const create = useMutation(trpc.user.create.mutationOptions(saved({ refresh: trpc.user.list.queryKey(), toast: (u) => t("create.created", { email: u.email }), then: onDone })));
  const errors = fieldErrorsOf(create.error);
  return (
    <FormPanel title={t("create.title")} error={create.error} onSubmit={() => create.mutate({ ...f, tenantId: f.role === "tenant" ? f.tenantId || null : null })}>
      <div className="form-row">
        <Field id="u-email" label={t("create.email")} errors={errors.email}>
          <input id="u-email" type="email" value={f.email} onChange={(e) => setF({ ...f, email: e.target.value })} aria-invalid={!!errors.email} />
        </Field>
        <Field id="u-name" label={t("create.name")} errors={errors.name}>
          <input id="u-name" value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} aria-invalid={!!errors.name} />
        </Field>
        <Field id="u-password" label={t("create.password")} hint={t("create.passwordHint")} errors={errors.password}>
          <input id="u-password" type="password" autoComplete="new-password" value={f.password} onChange={(e) => setF({ ...f, password: e.target.value })} aria-invalid={!!errors.password} />
        </Field>
      </div>
      <div className="form-row">
        <Field id="u-role" label={t("role")} hint={t(`hints.${f.role}`)} errors={errors.role}>
          <select id="u-role" value={f.role} onChange={(e) => setF({ ...f, role: e.target.value as RoleName })}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {roleName(r)}
              </option>
            ))}
          </select>
        </Field>
        {f.role === "tenant" && (
          <Field id="u-tenant" label={t("tenant")} errors={errors.tenantId}>
            <select id="u-tenant" value={f.tenantId} onChange={(e) => setF({ ...f, tenantId: e.target.value })} aria-invalid={!!errors.tenantId}>
              <option value="">{t("create.chooseTenant")}</option>
              {tenants.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </select>
          </Field>
        )}
      </div>
      <FormActions submit={t("create.submit")} pending={create.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
