"use client";

import { useState } from "react";
import { useTranslations } from "use-intl";
import { recentMonths } from "./adapters";

/**
 * Billing data as a FOCUS 1.2 dataset for a finance team's tools: whole months, CSV or JSONL,
 * streamed by /api/usage/focus (a tenant gets its own rows; staff a tenant's, or every tenant's
 * when none is given).
 */
export function FocusDownload({ tenantId }: { tenantId?: string }) {
  const t = useTranslations("usage.focus");
  const months = recentMonths();
  const [from, setFrom] = useState(months[0]!);
  const [to, setTo] = useState(months[0]!);
  const [format, setFormat] = useState<"csv" | "jsonl">("csv");
  const backwards = to < from;
  const href = `/api/usage/focus?${new URLSearchParams({ from, to, format, ...(tenantId ? { tenantId } : {}) })}`;
  return (
    <div className="panel">
      <h2>{t(tenantId === undefined ? "titleAll" : "title")}</h2>
      <div className="actions">
        <select aria-label={t("from")} value={from} onChange={(e) => setFrom(e.target.value)}>
          {months.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <select aria-label={t("to")} value={to} onChange={(e) => setTo(e.target.value)}>
          {months.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <select aria-label={t("format")} value={format} onChange={(e) => setFormat(e.target.value as "csv" | "jsonl")}>
          <option value="csv">CSV</option>
          <option value="jsonl">JSONL</option>
        </select>
        {backwards ? (
          <span className="form-error">{t("backwards")}</span>
        ) : (
          <a className="button" href={href} download>
            {t("download")}
          </a>
        )}
      </div>
      <p className="muted">{t("hint")}</p>
    </div>
  );
}
