"use client";

import { useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useFormat } from "@/components/i18n/use-format";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Field } from "@/components/ui/field";
import { FormActions } from "@/components/ui/page-head";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";
import { limitOf } from "@/components/api-keys/key-limits";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";

type Tenant = inferRouterOutputs<AppRouter>["tenant"]["get"];

const shown = (v: number | null | undefined) => (v == null ? "" : String(v));

/** What limits a tenant runs under, where each comes from: its own, its plan's, or none. */
export function LimitsSummary({ t }: { t: Tenant }) {
  const tr = useTranslations("tenants.limits");
  const fmt = useFormat();
  const one = (own: number | null, plan: number | null | undefined, unit: "rpm" | "tpm") =>
    own !== null ? tr(unit, { value: fmt.number(own) }) : plan != null ? tr(`${unit}Plan`, { value: fmt.number(plan) }) : tr("unlimited");
  return (
    <span>
      {one(t.rpmLimit, t.pricePlan?.rpmLimit, "rpm")} · {one(t.tpmLimit, t.pricePlan?.tpmLimit, "tpm")} ·{" "}
      {tr("credit", { value: t.creditLimit ? tr("perMonth", { amount: fmt.money(Number(t.creditLimit.toString()), t.pricePlan?.currency ?? "TRY") }) : tr("none") })}
      {t.creditBlockedAt && <span className="badge badge-danger">{tr("reached")}</span>}
    </span>
  );
}

/** An admin's edit of a tenant: plan, status, gateway limits, the platform's credit limit and its private prefix cache. */
export function TenantSettingsForm({ t, onDone }: { t: Tenant; onDone: () => void }) {
  const trpc = useTRPC();
  const saved = useSaveOptions();
  const tr = useTranslations("tenants.settings");
  const statuses = useTranslations("tenants.statuses");
  const plans = useQuery(trpc.tenant.pricePlans.queryOptions());
  const [f, setF] = useState({
    name: t.name,
    status: t.status === "suspended" ? "suspended" : "active",
    pricePlanId: t.pricePlanId ?? "",
    rpmLimit: shown(t.rpmLimit),
    tpmLimit: shown(t.tpmLimit),
    creditLimit: t.creditLimit?.toString() ?? "",
    verbisNumber: t.verbisNumber ?? "",
    privatePrefixCache: t.privatePrefixCache === null ? "" : String(t.privatePrefixCache),
    processingAgreementRef: t.processingAgreementRef ?? "",
    processingAgreementSignedAt: t.processingAgreementSignedAt ? new Date(t.processingAgreementSignedAt).toISOString().slice(0, 10) : "",
  });
  const orNull = (v: string) => (v.trim() === "" ? null : v.trim());
  const update = useMutation(trpc.tenant.update.mutationOptions(saved({ refresh: trpc.tenant.get.queryKey({ id: t.id }), toast: () => tr("saved", { name: t.name }), then: onDone })));
  const errors = fieldErrorsOf(update.error);
  return (
    <FormPanel
      title={tr("title", { name: t.name })}
      error={update.error}
      onSubmit={() =>
        update.mutate({
          id: t.id,
          expectedUpdatedAt: t.updatedAt,
          name: f.name,
          status: f.status as "active" | "suspended",
          pricePlanId: f.pricePlanId || null,
          rpmLimit: limitOf(f.rpmLimit),
          tpmLimit: limitOf(f.tpmLimit),
          creditLimit: f.creditLimit.trim() === "" ? null : f.creditLimit,
          privatePrefixCache: f.privatePrefixCache === "" ? null : f.privatePrefixCache === "true",
          verbisNumber: orNull(f.verbisNumber),
          processingAgreementRef: orNull(f.processingAgreementRef),
          processingAgreementSignedAt: f.processingAgreementSignedAt ? new Date(`${f.processingAgreementSignedAt}T00:00:00Z`) : null,
        })
      }
    >
      <div className="form-row">
        <Field id="ts-name" label={tr("name")} errors={errors.name}>
          <input id="ts-name" value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} aria-invalid={!!errors.name} />
        </Field>
        <Field id="ts-status" label={tr("status")} hint={tr("statusHint")} errors={errors.status}>
          <select id="ts-status" value={f.status} onChange={(e) => setF({ ...f, status: e.target.value })}>
            <option value="active">{statuses("active")}</option>
            <option value="suspended">{statuses("suspended")}</option>
          </select>
        </Field>
        <Field id="ts-plan" label={tr("plan")} errors={errors.pricePlanId}>
          <select id="ts-plan" value={f.pricePlanId} onChange={(e) => setF({ ...f, pricePlanId: e.target.value })}>
            <option value="">{tr("none")}</option>
            {plans.data?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="form-row">
        <Field id="ts-rpm" label={tr("rpm")} hint={tr("planHint")} errors={errors.rpmLimit}>
          <input id="ts-rpm" inputMode="numeric" value={f.rpmLimit} onChange={(e) => setF({ ...f, rpmLimit: e.target.value })} aria-invalid={!!errors.rpmLimit} />
        </Field>
        <Field id="ts-tpm" label={tr("tpm")} hint={tr("planHint")} errors={errors.tpmLimit}>
          <input id="ts-tpm" inputMode="numeric" value={f.tpmLimit} onChange={(e) => setF({ ...f, tpmLimit: e.target.value })} aria-invalid={!!errors.tpmLimit} />
        </Field>
        <Field id="ts-credit" label={tr("credit")} hint={tr("creditHint")} errors={errors.creditLimit}>
          <input id="ts-credit" inputMode="decimal" value={f.creditLimit} onChange={(e) => setF({ ...f, creditLimit: e.target.value })} aria-invalid={!!errors.creditLimit} />
        </Field>
        <Field id="ts-cache" label={tr("privateCache")} hint={tr("privateCacheHint")} errors={errors.privatePrefixCache}>
          <select id="ts-cache" value={f.privatePrefixCache} onChange={(e) => setF({ ...f, privatePrefixCache: e.target.value })}>
            <option value="">{tr("privateCacheDefault")}</option>
            <option value="true">{tr("privateCacheOn")}</option>
            <option value="false">{tr("privateCacheOff")}</option>
          </select>
        </Field>
      </div>
      <div className="form-row">
        <Field id="ts-verbis" label={tr("verbis")} hint={tr("verbisHint")} errors={errors.verbisNumber}>
          <input id="ts-verbis" value={f.verbisNumber} onChange={(e) => setF({ ...f, verbisNumber: e.target.value })} aria-invalid={!!errors.verbisNumber} />
        </Field>
        <Field id="ts-dpa" label={tr("agreement")} hint={tr("agreementHint")} errors={errors.processingAgreementRef}>
          <input id="ts-dpa" value={f.processingAgreementRef} onChange={(e) => setF({ ...f, processingAgreementRef: e.target.value })} aria-invalid={!!errors.processingAgreementRef} />
        </Field>
        <Field id="ts-dpa-date" label={tr("agreementSigned")} errors={errors.processingAgreementSignedAt}>
          <input id="ts-dpa-date" type="date" value={f.processingAgreementSignedAt} onChange={(e) => setF({ ...f, processingAgreementSignedAt: e.target.value })} aria-invalid={!!errors.processingAgreementSignedAt} />
        </Field>
      </div>
      <FormActions submit={tr("save")} pending={update.isPending} onCancel={onDone} />
    </FormPanel>
  );
}

/** Offboarding: the tenant's keys are revoked at once and its people lose access; its call log is kept for its retention. */
export function OffboardForm({ t, onDone }: { t: Tenant; onDone: () => void }) {
  const trpc = useTRPC();
  const saved = useSaveOptions();
  const tr = useTranslations("tenants.offboard");
  const fmt = useFormat();
  const [slug, setSlug] = useState("");
  const offboard = useMutation(
    trpc.tenant.offboard.mutationOptions(
      saved({ refresh: trpc.tenant.get.queryKey({ id: t.id }), toast: (r) => tr("done", { name: t.name, count: r.keysRevoked, date: fmt.date(r.callLogKeptUntil) }), then: onDone }),
    ),
  );
  const errors = fieldErrorsOf(offboard.error);
  return (
    <FormPanel title={tr("title", { name: t.name })} error={offboard.error} onSubmit={() => offboard.mutate({ id: t.id, confirmSlug: slug, expectedUpdatedAt: t.updatedAt })}>
      <p>{tr("body", { name: t.name })}</p>
      <Field id="ob-slug" label={tr("confirm", { slug: t.slug })} errors={errors.confirmSlug}>
        <input id="ob-slug" value={slug} onChange={(e) => setSlug(e.target.value)} aria-invalid={!!errors.confirmSlug} />
      </Field>
      <FormActions submit={tr("submit")} pending={offboard.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
