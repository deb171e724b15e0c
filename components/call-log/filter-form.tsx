"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import type { CallLogFilter } from "@/server/call-log/schemas";

/** Form state: every field text, as typed; `toFilter` turns it into the procedures' filter. */
export interface FilterDraft {
  tenantId: string;
  apiKeyId: string;
  endpointId: string;
  versionId: string;
  status: string;
  clientIp: string;
  requestId: string;
  from: string;
  to: string;
  /** Why an auditor needs client IPs unmasked (not part of the filter: recorded with the search). */
  unmaskReason: string;
}

export const emptyDraft = (): FilterDraft => {
  const to = new Date(Date.now() + 60_000);
  const from = new Date(to.getTime() - 7 * 86_400_000);
  const local = (d: Date) => d.toISOString().slice(0, 16);
  return { tenantId: "", apiKeyId: "", endpointId: "", versionId: "", status: "", clientIp: "", requestId: "", from: local(from), to: local(to), unmaskReason: "" };
};

/** datetime-local inputs are read as UTC: the explorer shows and filters times in UTC. */
export function toFilter(d: FilterDraft): CallLogFilter {
  const t = (s: string) => s.trim() || null;
  return {
    tenantId: t(d.tenantId),
    apiKeyId: t(d.apiKeyId),
    endpointId: t(d.endpointId),
    versionId: t(d.versionId),
    status: d.status.trim() ? Number(d.status) : null,
    clientIp: t(d.clientIp),
    requestId: t(d.requestId),
    from: d.from ? new Date(`${d.from}Z`) : null,
    to: d.to ? new Date(`${d.to}Z`) : null,
  };
}

export function FilterForm({ staff, ipsMasked, onApply, fieldErrors }: { staff: boolean; ipsMasked: boolean; onApply: (d: FilterDraft) => void; fieldErrors?: Record<string, string[] | undefined> | null }) {
  const trpc = useTRPC();
  const t = useTranslations("callLog.filter");
  const tenants = useQuery({ ...trpc.tenant.list.queryOptions(), enabled: staff });
  const [d, setD] = useState<FilterDraft>(emptyDraft);
  const input = (key: keyof FilterDraft, label: string, props: Record<string, string> = {}) => (
    <label className="field" style={{ minWidth: 140 }}>
      <span>{label}</span>
      <input aria-label={label} value={d[key]} onChange={(e) => setD({ ...d, [key]: e.target.value })} {...props} />
      {fieldErrors?.[key]?.map((m) => (
        <span key={m} className="error">
          {m}
        </span>
      ))}
    </label>
  );
  return (
    <form
      className="panel actions"
      style={{ flexWrap: "wrap", alignItems: "flex-end" }}
      onSubmit={(e) => {
        e.preventDefault();
        onApply(d);
      }}
    >
      {staff && (
        <label className="field" style={{ minWidth: 160 }}>
          <span>{t("tenant")}</span>
          <select aria-label={t("tenant")} value={d.tenantId} onChange={(e) => setD({ ...d, tenantId: e.target.value })}>
            <option value="">{t("allTenants")}</option>
            {tenants.data?.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {input("apiKeyId", t("keyId"))}
      {input("endpointId", t("endpointId"))}
      {input("versionId", t("versionId"))}
      {input("status", t("status"), { inputMode: "numeric", placeholder: t("statusPlaceholder") })}
      {input("clientIp", t("clientIp"))}
      {input("requestId", t("requestId"))}
      {input("from", t("from"), { type: "datetime-local" })}
      {input("to", t("to"), { type: "datetime-local" })}
      {ipsMasked && (
        <div style={{ flexBasis: "100%" }}>
          {input("unmaskReason", t("unmaskReason"), { placeholder: t("unmaskPlaceholder") })}
          <span className="hint">{t("unmaskHint")}</span>
        </div>
      )}
      <button type="submit" className="primary">
        {t("search")}
      </button>
    </form>
  );
}
