"use client";

import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useLocale, useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { recentMonths } from "./adapters";

/** A month's invoice lines as a CSV download (the CSV's own headers are the server's). */
export function Invoices({ tenantId }: { tenantId?: string }) {
  const trpc = useTRPC();
  const t = useTranslations("usage.invoices");
  const months = recentMonths();
  const [month, setMonth] = useState(months[0]!);
  const locale = useLocale();
  const invoice = useQuery({ ...trpc.usage.invoice.queryOptions({ tenantId, month, locale }), enabled: false });
  const download = async () => {
    const r = await invoice.refetch();
    if (!r.data) return;
    const url = URL.createObjectURL(new Blob([r.data.csv], { type: "text/csv;charset=utf-8" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = r.data.filename;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="panel">
      <h2>{t("title")}</h2>
      <div className="actions">
        <select aria-label={t("month")} value={month} onChange={(e) => setMonth(e.target.value)}>
          {months.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <button onClick={() => void download()} disabled={invoice.isFetching}>
          {t("download")}
        </button>
        <span className="muted">{t("hint")}</span>
      </div>
      {invoice.error && <div className="form-error">{invoice.error.message}</div>}
    </div>
  );
}

/** Staff without a tenant chosen: every tenant, to open its portal as it sees it. */
export function StaffPicker() {
  const trpc = useTRPC();
  const t = useTranslations("usage.staffPicker");
  const tenants = useQuery(trpc.tenant.list.queryOptions());
  return (
    <div className="panel">
      <h1>{t("title")}</h1>
      <p className="muted">{t.rich("hint", { link: (c) => <Link href="/costs">{c}</Link> })}</p>
      <ul>
        {tenants.data?.map((x) => (
          <li key={x.id}>
            <Link href={`/usage?tenant=${x.id}`}>{x.name}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
