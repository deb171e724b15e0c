"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { Field } from "@/components/ui/field";
import { useFormat } from "@/components/i18n/use-format";

/** A data subject's request: find by the `user` identifier (hashed, never stored), export, erase. */
export function SubjectRequest({ canDestroy }: { canDestroy: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("kvkk.subject");
  const fmt = useFormat();
  const [user, setUser] = useState("");
  const [ip, setIp] = useState("");
  const [reference, setReference] = useState("");
  const [tenantId, setTenantId] = useState("");
  const tenants = useQuery(trpc.kvkk.settings.queryOptions());
  const find = useMutation(trpc.kvkk.subject.find.mutationOptions());
  const exp = useMutation(trpc.kvkk.subject.export.mutationOptions({ onSuccess: () => toast.success(t("exported")) }));
  const destroy = useMutation(
    trpc.kvkk.subject.destroy.mutationOptions({
      onSuccess: (r) => {
        if (r.held.length) return void toast.error(t("held", { reasons: r.held.join("; ") }));
        toast.success(t("destroyed", { rows: fmt.number(r.rowCount), id: r.id ?? "" }));
        void qc.invalidateQueries({ queryKey: trpc.kvkk.destructions.queryKey() });
      },
    }),
  );
  const errs = (find.error?.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors;
  const r = find.data;
  return (
    <section className="panel" aria-label={t("aria")}>
      <h2>{t("title")}</h2>
      <form
        className="actions"
        style={{ alignItems: "flex-end" }}
        onSubmit={(e) => {
          e.preventDefault();
          find.mutate({ user: user || null, ip: ip || null, tenantId: tenantId || null, reference: reference || null });
        }}
      >
        <Field id="dsr-user" label={t("user")} errors={errs?.user}>
          <input id="dsr-user" value={user} onChange={(e) => setUser(e.target.value)} />
        </Field>
        <Field id="dsr-ip" label={t("ip")} errors={errs?.ip}>
          <input id="dsr-ip" value={ip} onChange={(e) => setIp(e.target.value)} placeholder="203.0.113.7" size={16} />
        </Field>
        <Field id="dsr-tenant" label={t("tenant")} errors={errs?.tenantId}>
          <select id="dsr-tenant" value={tenantId} onChange={(e) => setTenantId(e.target.value)}>
            <option value="">{t("choose")}</option>
            {tenants.data?.tenants.map((x) => (
              <option key={x.id} value={x.id}>
                {x.slug}
              </option>
            ))}
          </select>
        </Field>
        <Field id="dsr-ref" label={t("reference")} errors={errs?.reference}>
          <input id="dsr-ref" value={reference} onChange={(e) => setReference(e.target.value)} />
        </Field>
        <button type="submit" className="primary" disabled={find.isPending}>
          {t("find")}
        </button>
      </form>
      {destroy.data?.keptUntil && (
        <p className="muted" role="status" aria-label={t("keptAria")}>
          {t("kept", { rows: fmt.number(destroy.data.unlinked + destroy.data.keptWhole), days: destroy.data.trafficLogMinDays ?? 0, until: fmt.date(destroy.data.keptUntil) })}
        </p>
      )}
      {destroy.data && destroy.data.held.length > 0 && (
        <p className="error" role="alert">
          {t("held", { reasons: destroy.data.held.join("; ") })}
        </p>
      )}
      {r && (
        <div role="status">
          <p>
            {t("found", { count: r.rowsFound, more: r.byTenantMonth.length ? "yes" : "no" })}{" "}
            {r.byTenantMonth.map((c) => `${c.tenantSlug} ${fmt.month(c.month)} (${fmt.number(c.rows)})`).join(", ")}
          </p>
          {r.rowsFound > 0 && (
            <div className="actions">
              <button onClick={() => exp.mutate({ requestId: r.requestId, format: "csv" })}>{t("export")}</button>
              {canDestroy && (
                <button className="danger" onClick={() => confirm(t("confirmDestroy", { count: r.rowsFound })) && destroy.mutate({ requestId: r.requestId, method: "delete" })}>
                  {t("destroy")}
                </button>
              )}
            </div>
          )}
        </div>
      )}
    </section>
  );
}
