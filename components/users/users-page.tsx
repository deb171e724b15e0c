"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Empty, Field } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { FormActions, PageHead } from "@/components/ui/page-head";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";

const ROLES = ["admin", "operator", "tenant", "auditor"] as const;
type RoleName = (typeof ROLES)[number];
const ROLE_HINT: Record<RoleName, string> = {
  admin: "everything, including users, tenants and prices",
  operator: "models, endpoints, rollouts and the cluster",
  tenant: "its own tenant's keys, usage and cost only",
  auditor: "read-only: call logs and audit events",
};

export function UsersPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const users = useQuery(trpc.user.list.queryOptions(undefined, PANEL_QUERY));
  const tenants = useQuery(trpc.tenant.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const setRole = useMutation(trpc.user.setRole.mutationOptions({ onSuccess: () => qc.invalidateQueries({ queryKey: trpc.user.list.queryKey() }) }));
  return (
    <>
      <PageHead
        title="Users & roles"
        action={
          !creating && (
            <button className="primary" onClick={() => setCreating(true)}>
              New user
            </button>
          )
        }
      >
        Who can sign in, and what each role may do.
      </PageHead>
      {creating && <CreateUserForm tenants={tenants.data ?? []} onDone={() => setCreating(false)} />}
      <div className="panel">
        <QueryState query={users} what="users" empty={<Empty title="No users" />}>
          {(data) => (
            <table>
              <thead>
                <tr>
                  <th>User</th>
                  <th>Role</th>
                  <th>Tenant</th>
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
                        aria-label={`Role of ${u.email}`}
                        value={u.membership?.role ?? ""}
                        disabled={setRole.isPending}
                        onChange={(e) => {
                          const role = e.target.value as RoleName;
                          // A tenant user needs a tenant: switching to it keeps the current one or asks on the form instead.
                          if (role === "tenant" && !u.membership?.tenantId) return alert("Create tenant users with “New user”, choosing their tenant.");
                          setRole.mutate({ userId: u.id, role, tenantId: role === "tenant" ? u.membership?.tenantId : null });
                        }}
                        style={{ maxWidth: 160 }}
                      >
                        {ROLES.map((r) => (
                          <option key={r}>{r}</option>
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
  const [f, setF] = useState({ email: "", name: "", password: "", role: "operator" as RoleName, tenantId: "" });
  const create = useMutation(trpc.user.create.mutationOptions(saved({ refresh: trpc.user.list.queryKey(), toast: (u) => `${u.email} can now sign in`, then: onDone })));
  const errors = fieldErrorsOf(create.error);
  return (
    <FormPanel title="New user" error={create.error} onSubmit={() => create.mutate({ ...f, tenantId: f.role === "tenant" ? f.tenantId || null : null })}>
      <div className="form-row">
        <Field id="u-email" label="E-mail" errors={errors.email}>
          <input id="u-email" type="email" value={f.email} onChange={(e) => setF({ ...f, email: e.target.value })} aria-invalid={!!errors.email} />
        </Field>
        <Field id="u-name" label="Name" errors={errors.name}>
          <input id="u-name" value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} aria-invalid={!!errors.name} />
        </Field>
        <Field id="u-password" label="Initial password" hint="At least 10 characters" errors={errors.password}>
          <input id="u-password" type="password" autoComplete="new-password" value={f.password} onChange={(e) => setF({ ...f, password: e.target.value })} aria-invalid={!!errors.password} />
        </Field>
      </div>
      <div className="form-row">
        <Field id="u-role" label="Role" hint={ROLE_HINT[f.role]} errors={errors.role}>
          <select id="u-role" value={f.role} onChange={(e) => setF({ ...f, role: e.target.value as RoleName })}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </Field>
        {f.role === "tenant" && (
          <Field id="u-tenant" label="Tenant" errors={errors.tenantId}>
            <select id="u-tenant" value={f.tenantId} onChange={(e) => setF({ ...f, tenantId: e.target.value })} aria-invalid={!!errors.tenantId}>
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
      <FormActions submit="Create user" pending={create.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
