"use client";

import Link from "next/link";
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useFormat } from "@/components/i18n/use-format";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Empty, Field } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { PageHead, FormActions } from "@/components/ui/page-head";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";

export function TenantsPage({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const t = useTranslations("tenants");
  const fmt = useFormat();
  const tenants = useQuery(trpc.tenant.list.queryOptions(undefined, PANEL_QUERY));
  const [creating, setCreating] = useState(false);
  const limit = (v: number | null | undefined) => (v == null ? "∞" : fmt.number(v));
  const update = useMutation(trpc.tenant.update.mutationOptions({ onSuccess: () => qc.invalidateQueries({ queryKey: trpc.tenant.list.queryKey() }) }));
  return (
    <>
      <PageHead
        title={t("list.title")}
        action={
          canWrite &&
          !creating && (
            <button className="primary" onClick={() => setCreating(true)}>
              {t("list.new")}
            </button>
          )
        }
      >
        {t("list.intro")}
      </PageHead>
      {creating && <CreateTenantForm onDone={() => setCreating(false)} />}
      <div className="panel">
        <QueryState query={tenants} what={t("list.loading")} empty={<Empty title={t("list.emptyTitle")}>{canWrite ? t("list.emptyWrite") : t("list.emptyRead")}</Empty>}>
          {(data) => (
            <table>
              <thead>
                <tr>
                  <th>{t("list.tenant")}</th>
                  <th>{t("list.slug")}</th>
                  <th>{t("list.residency")}</th>
                  <th>{t("list.status")}</th>
                  <th>{t("list.plan")}</th>
                  <th>{t("list.limits")}</th>
                  <th>{t("list.keys")}</th>
                  <th>{t("list.users")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((x) => (
                  <tr key={x.id}>
                    <td>
                      <Link href={`/tenants/${x.id}`}>{x.name}</Link>
                    </td>
                    <td>
                      <code>{x.slug}</code>
                    </td>
                    <td>
                      {canWrite ? (
                        <label>
                          <input type="checkbox" checked={x.kvkk} disabled={update.isPending} onChange={(e) => update.mutate({ id: x.id, expectedUpdatedAt: x.updatedAt, kvkk: e.target.checked })} aria-label={t("list.turkeyOnlyFor", { tenant: x.name })} />{" "}
                          {x.kvkk ? <span className="badge badge-kvkk">{t("list.turkeyOnlyContract")}</span> : <span className="muted">{t("list.turkeyAbroad")}</span>}
                        </label>
                      ) : x.kvkk ? (
                        <span className="badge badge-kvkk">{t("list.turkeyOnlyContract")}</span>
                      ) : (
                        <span className="muted">{t("list.turkeyAbroad")}</span>
                      )}
                    </td>
                    <td>
                      <span className={`badge ${x.status === "active" ? "badge-ok" : "badge-danger"}`}>{t(`statuses.${x.status}`)}</span>
                    </td>
                    <td>{x.pricePlan?.name ?? <span className="muted">{t("list.none")}</span>}</td>
                    <td>
                      {t("list.limitsCell", { rpm: limit(x.rpmLimit ?? x.pricePlan?.rpmLimit), tpm: limit(x.tpmLimit ?? x.pricePlan?.tpmLimit) })}
                      {x.creditLimit && <div className="muted">{t("list.credit", { amount: fmt.money(Number(x.creditLimit.toString()), x.pricePlan?.currency ?? "TRY") })}</div>}
                    </td>
                    <td>{fmt.number(x._count.apiKeys)}</td>
                    <td>{fmt.number(x._count.memberships)}</td>
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
  const t = useTranslations("tenants.create");
  const plans = useQuery(trpc.tenant.pricePlans.queryOptions());
  const [f, setF] = useState({ name: "", slug: "", kvkk: false, pricePlanId: "" });
  const create = useMutation(trpc.tenant.create.mutationOptions(saved({ refresh: trpc.tenant.list.queryKey(), toast: (x) => t("created", { name: x.name }), then: onDone })));
  const errors = fieldErrorsOf(create.error);
  return (
    <FormPanel
      title={t("title")}
      error={create.error}
      onSubmit={() => {
        create.mutate({ name: f.name, slug: f.slug, kvkk: f.kvkk, pricePlanId: f.pricePlanId || null });
      }}
    >
      <div className="form-row">
        <Field id="t-name" label={t("name")} errors={errors.name}>
          <input id="t-name" value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} aria-invalid={!!errors.name} />
        </Field>
        <Field id="t-slug" label={t("slug")} hint={t("slugHint")} errors={errors.slug}>
          <input id="t-slug" value={f.slug} onChange={(e) => setF({ ...f, slug: e.target.value })} aria-invalid={!!errors.slug} />
        </Field>
        <Field id="t-plan" label={t("plan")} errors={errors.pricePlanId}>
          <select id="t-plan" value={f.pricePlanId} onChange={(e) => setF({ ...f, pricePlanId: e.target.value })}>
            <option value="">{t("noneYet")}</option>
            {plans.data?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <label>
        <input type="checkbox" checked={f.kvkk} onChange={(e) => setF({ ...f, kvkk: e.target.checked })} /> {t("kvkk")}
      </label>
      <FormActions submit={t("submit")} pending={create.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
