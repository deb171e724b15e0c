"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { useTranslations } from "use-intl";
import { Empty, Field, Loading } from "@/components/ui/field";
import { useFormat } from "@/components/i18n/use-format";
import { Legal } from "@/components/ui/legal";
import { FormRow, TextField } from "@/components/ui/form-row";

/** KVKK Art. 9 as amended by Law 7499: the three bases the Board recognises for a regular transfer (names: kvkk.mechanisms). */
export const MECHANISMS = ["adequacy", "standard_contract", "bcr"] as const;
const empty = { tenantId: "", destination: "", importer: "", mechanism: "standard_contract", reference: "", signedAt: "", notifiedAt: "" };

/** Safeguards for transfers abroad: without one, the gateway keeps a tenant's calls in Turkey. */
export function SafeguardsPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("kvkk");
  const fmt = useFormat();
  const list = useQuery(trpc.kvkk.safeguards.list.queryOptions());
  const tenants = useQuery(trpc.kvkk.settings.queryOptions());
  const [f, setF] = useState(empty);
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.kvkk.safeguards.list.queryKey() });
  const create = useMutation(trpc.kvkk.safeguards.create.mutationOptions({ onSuccess: () => (toast.success(t("safeguards.created")), setF(empty), refresh()) }));
  const notified = useMutation(trpc.kvkk.safeguards.notified.mutationOptions({ onSuccess: () => (toast.success(t("safeguards.notified")), refresh()), onError: (e) => toast.error(e.message) }));
  const revoke = useMutation(trpc.kvkk.safeguards.revoke.mutationOptions({ onSuccess: () => (toast.success(t("safeguards.revoked")), refresh()), onError: (e) => toast.error(e.message) }));
  const errs = (create.error?.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors;
  const overdue = list.data?.filter((s) => s.notification === "overdue" && !s.revokedAt) ?? [];
  const set = (k: keyof typeof empty) => (v: string) => setF({ ...f, [k]: v });
  return (
    <section className="panel" aria-label={t("safeguards.aria")}>
      <h2>
        <Legal id="kvkk.safeguards.title" />
      </h2>
      <p className="muted">
        <Legal id="kvkk.safeguards.intro" />
      </p>
      {overdue.length > 0 && (
        <p className="error" role="alert" aria-label={t("safeguards.overdueAria")}>
          {t("safeguards.overdue", { list: overdue.map((s) => t("safeguards.overdueItem", { tenant: s.tenantSlug ?? s.tenantId, destination: s.destination, date: fmt.dateTime(s.notificationDueAt) })).join(", ") })}
        </p>
      )}
      {list.isPending ? (
        <Loading what={t("safeguards.loading")} />
      ) : !list.data?.length ? (
        <Empty title={t("safeguards.emptyTitle")}>{canWrite ? ` ${t("safeguards.emptyHint")}` : ""}</Empty>
      ) : (
        <table aria-label={t("safeguards.tableAria")}>
          <thead>
            <tr>
              <th>{t("safeguards.tenant")}</th>
              <th>{t("safeguards.country")}</th>
              <th>{t("safeguards.importer")}</th>
              <th>{t("safeguards.mechanism")}</th>
              <th>{t("safeguards.signed")}</th>
              <th>{t("safeguards.notifiedToAuthority")}</th>
              <th>{t("safeguards.inForce")}</th>
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
                  {t(`mechanisms.${s.mechanism}`)} · {s.reference}
                </td>
                <td>{fmt.dateTime(s.signedAt)}</td>
                <td className={s.notification === "overdue" ? "error" : undefined}>
                  {t(`safeguards.notification.${s.notification}`)} {s.notifiedAt ? fmt.dateTime(s.notifiedAt) : s.notificationDueAt ? t("safeguards.dueBy", { date: fmt.dateTime(s.notificationDueAt) }) : ""}
                </td>
                <td>{s.revokedAt ? t("safeguards.revokedAt", { date: fmt.dateTime(s.revokedAt) }) : s.inForce ? t("safeguards.yes") : t("safeguards.notYet")}</td>
                {canWrite && (
                  <td className="actions">
                    {!s.revokedAt && s.notification !== "done" && s.notification !== "not_required" && (
                      <button onClick={() => notified.mutate({ id: s.id, notifiedAt: new Date(), expectedUpdatedAt: s.updatedAt })}>{t("safeguards.notifiedToday")}</button>
                    )}
                    {!s.revokedAt && (
                      <button className="danger" onClick={() => confirm(t("safeguards.confirmRevoke", { tenant: s.tenantSlug ?? s.tenantId, destination: s.destination })) && revoke.mutate({ id: s.id, expectedUpdatedAt: s.updatedAt })}>
                        {t("safeguards.revoke")}
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
        <FormRow label={t("safeguards.formAria")} onSubmit={() => create.mutate({ ...f, mechanism: f.mechanism as (typeof MECHANISMS)[number], notifiedAt: f.notifiedAt || null })}>
          <Field id="sg-tenant" label={t("safeguards.tenant")} errors={errs?.tenantId}>
            <select id="sg-tenant" value={f.tenantId} onChange={(e) => set("tenantId")(e.target.value)}>
              <option value="">{t("safeguards.choose")}</option>
              {tenants.data?.tenants.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.slug}
                </option>
              ))}
            </select>
          </Field>
          <TextField id="sg-dest" label={t("safeguards.countryLabel")} hint={t("safeguards.countryHint")} errors={errs?.destination} value={f.destination} onChange={set("destination")} size={4} />
          <TextField id="sg-importer" label={t("safeguards.importerLabel")} errors={errs?.importer} value={f.importer} onChange={set("importer")} />
          <Field id="sg-mech" label={t("safeguards.mechanism")} errors={errs?.mechanism}>
            <select id="sg-mech" value={f.mechanism} onChange={(e) => set("mechanism")(e.target.value)}>
              {MECHANISMS.map((k) => (
                <option key={k} value={k}>
                  {t(`mechanisms.${k}`)}
                </option>
              ))}
            </select>
          </Field>
          <TextField id="sg-ref" label={t("safeguards.reference")} errors={errs?.reference} value={f.reference} onChange={set("reference")} />
          <TextField id="sg-signed" label={t("safeguards.signedOn")} errors={errs?.signedAt} type="date" value={f.signedAt} onChange={set("signedAt")} />
          <TextField id="sg-notified" label={t("safeguards.notifiedOn")} errors={errs?.notifiedAt} type="date" value={f.notifiedAt} onChange={set("notifiedAt")} />
          <button type="submit" className="primary" disabled={create.isPending}>
            {t("safeguards.submit")}
          </button>
          {create.error && !errs && <p className="error">{create.error.message}</p>}
        </FormRow>
      )}
    </section>
  );
}
